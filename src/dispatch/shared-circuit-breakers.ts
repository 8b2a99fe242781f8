import { CircuitBreakers } from './circuit-breaker.js';
import type { SharedStateHealth } from '../store/redis/redis-health.js';
import type { BreakerSettings, BreakerState, RoutingStateChannel } from '../store/routing-state-channel.js';

export interface SharedCircuitBreakersOptions {
  settings: BreakerSettings;
  channel: RoutingStateChannel;
  health: SharedStateHealth;
  now?: () => number;
  /** Called when a circuit's effective state (local or cluster-wide) changes; the gateway logs and exports it. */
  onChange?: (key: string, state: BreakerState) => void;
}

/**
 * Circuit breakers shared by every instance, still answering synchronously: the attempt loop asks on every
 * attempt and must not wait on the network. Each instance keeps its own breakers (the in-memory class) and adds
 * an overlay of circuits opened elsewhere. Outcomes also go, in the background, into the channel's cluster-wide
 * window, so failures spread over instances open the circuit everywhere even when no single instance saw enough.
 *
 * A circuit opened elsewhere is open here for `openMs` from when it opened; after that this instance uses its own
 * circuit again (closed unless it saw failures itself), and the half-open trial is made by the instance that
 * opened it. When the channel fails, only the local breakers remain: the behaviour of a single instance.
 */
export class SharedCircuitBreakers extends CircuitBreakers {
  readonly #remote = new Map<string, number>();
  readonly #reported = new Map<string, BreakerState>();
  readonly #options: SharedCircuitBreakersOptions;
  readonly #now: () => number;

  constructor(options: SharedCircuitBreakersOptions) {
    const now = options.now ?? Date.now;
    let self: SharedCircuitBreakers | undefined;
    super(options.settings, now, (key, state) => self?.localChanged(key, state));
    self = this;
    this.#options = options;
    this.#now = now;
  }

  override state(key: string): BreakerState {
    const local = super.state(key);
    if (local !== 'closed') return local;
    return this.#remoteOpen(key) ? 'open' : 'closed';
  }

  override allow(key: string): boolean {
    if (super.state(key) === 'closed' && this.#remoteOpen(key)) return false;
    return super.allow(key);
  }

  override record(key: string, ok: boolean): void {
    super.record(key, ok);
    const at = this.#now();
    this.#options.channel.recordOutcome(key, ok, this.#options.settings, at).then(
      (opened) => {
        this.#options.health.succeeded();
        if (!opened) return;
        this.adopt(key, 'open', at);
        this.#publish(key, 'open', at);
      },
      (error: unknown) => this.#options.health.failed('breaker outcome', error),
    );
  }

  override snapshot(): Record<string, BreakerState> {
    const result = super.snapshot();
    for (const key of this.#remote.keys()) result[key] = this.state(key);
    return result;
  }

  /** A circuit opened (or closed) by another instance, from an event or a snapshot. */
  adopt(key: string, state: 'open' | 'closed', openedAt: number): void {
    if (state === 'open') {
      if (openedAt > (this.#remote.get(key) ?? -1)) this.#remote.set(key, openedAt);
    } else {
      this.#remote.delete(key);
    }
    this.#report(key);
  }

  /** Replaces the overlay with what the shared state holds now (after a reconnect, or periodically). */
  adoptSnapshot(openBreakers: Readonly<Record<string, number>>): void {
    for (const key of [...this.#remote.keys()]) if (!(key in openBreakers)) this.adopt(key, 'closed', 0);
    for (const [key, openedAt] of Object.entries(openBreakers)) this.adopt(key, 'open', openedAt);
  }

  /** The local breaker of `key` changed state: tell the other instances when it opened or closed. */
  private localChanged(key: string, state: BreakerState): void {
    if (state === 'open') this.#publish(key, 'open', this.#now());
    if (state === 'closed') {
      this.#remote.delete(key);
      this.#publish(key, 'closed', 0);
    }
    this.#report(key);
  }

  #remoteOpen(key: string): boolean {
    const openedAt = this.#remote.get(key);
    if (openedAt === undefined) return false;
    if (this.#now() - openedAt < this.#options.settings.openMs) return true;
    this.#remote.delete(key);
    this.#report(key);
    return false;
  }

  #report(key: string): void {
    const state = this.state(key);
    if (this.#reported.get(key) === state) return;
    this.#reported.set(key, state);
    this.#options.onChange?.(key, state);
  }

  #publish(key: string, state: 'open' | 'closed', openedAt: number): void {
    const channel = this.#options.channel;
    channel.publish({ kind: 'breaker', key, state, openedAt, origin: channel.instanceId }).then(
      () => this.#options.health.succeeded(),
      (error: unknown) => this.#options.health.failed('breaker publish', error),
    );
  }
}
