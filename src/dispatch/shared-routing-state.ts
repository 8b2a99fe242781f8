import type { PolicyDocument } from '../store/policy/policy-document.js';
import type { PolicyStore } from '../store/policy/policy-store.js';
import type { SharedStateHealth, StateLogger } from '../store/redis/redis-health.js';
import { silentStateLogger } from '../store/redis/redis-health.js';
import type { BreakerSettings, BreakerState, RoutingStateChannel, RoutingStateEvent } from '../store/routing-state-channel.js';
import { SharedCircuitBreakers } from './shared-circuit-breakers.js';
import { SharedCooldowns } from './shared-cooldowns.js';

/** What the gateway's model switches offer for being told about a policy saved elsewhere. */
export interface ReloadablePolicy {
  readonly revision: number;
  reload(): Promise<void>;
}

export interface SharedRoutingStateOptions {
  channel: RoutingStateChannel;
  health: SharedStateHealth;
  breakerSettings: BreakerSettings;
  logger?: StateLogger;
  /**
   * How often the instance re-reads the shared state and the policy, in case it missed a message (pub/sub
   * delivers at most once; a reconnect loses what was sent meanwhile). Messages make changes visible in
   * milliseconds; this bounds how late a missed one can be.
   */
  resyncIntervalMs?: number;
  now?: () => number;
}

/**
 * One instance's membership in the cluster's routing state: its breakers and cooldowns (shared through the
 * channel), the policy reload on revision events, and a periodic resync. Nothing here is on the request path.
 */
export class SharedRoutingState {
  readonly cooldowns: SharedCooldowns;
  readonly health: SharedStateHealth;
  readonly #options: SharedRoutingStateOptions;
  readonly #now: () => number;
  readonly #breakers: SharedCircuitBreakers[] = [];
  readonly #policies: ReloadablePolicy[] = [];
  readonly #unsubscribe: () => void;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: SharedRoutingStateOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.health = options.health;
    this.cooldowns = new SharedCooldowns(options.channel, options.health, this.#now);
    this.#unsubscribe = options.channel.subscribe((event) => this.#receive(event));
  }

  /** The gateway's breakers; `onChange` is the gateway's listener (log line, metrics gauge). */
  createBreakers(settings: BreakerSettings, onChange?: (key: string, state: BreakerState) => void): SharedCircuitBreakers {
    const breakers = new SharedCircuitBreakers({
      settings,
      channel: this.#options.channel,
      health: this.#options.health,
      now: this.#now,
      ...(onChange ? { onChange } : {}),
    });
    this.#breakers.push(breakers);
    return breakers;
  }

  /** Reload `policy` whenever another instance announces a newer revision (and on every resync). */
  followPolicy(policy: ReloadablePolicy): void {
    this.#policies.push(policy);
  }

  /** Wraps a policy store so every successful save is announced to the other instances. */
  announcingPolicyStore(store: PolicyStore): PolicyStore {
    const announce = (revision: number): void => {
      const channel = this.#options.channel;
      channel.publish({ kind: 'policy', revision, origin: channel.instanceId }).then(
        () => this.health.succeeded(),
        (error: unknown) => this.health.failed('policy publish', error),
      );
    };
    return {
      specificationVersion: 'v1',
      location: store.location,
      load: () => store.load(),
      save: async (next: PolicyDocument, expectedRevision: number) => {
        await store.save(next, expectedRevision);
        announce(next.revision);
      },
    };
  }

  /** Adopts the current shared state, then keeps resyncing in the background. */
  async start(): Promise<void> {
    await this.resync();
    const interval = this.#options.resyncIntervalMs ?? 5_000;
    this.#timer = setInterval(() => void this.resync(), interval);
    this.#timer.unref();
  }

  async resync(): Promise<void> {
    try {
      const snapshot = await this.#options.channel.snapshot(this.#options.breakerSettings.openMs, this.#now());
      this.health.succeeded();
      for (const breakers of this.#breakers) breakers.adoptSnapshot(snapshot.openBreakers);
      for (const [key, until] of Object.entries(snapshot.cooldowns)) this.cooldowns.adopt(key, until);
    } catch (error) {
      this.health.failed('resync', error);
    }
    await Promise.all(this.#policies.map((policy) => this.#reload(policy)));
  }

  #receive(event: RoutingStateEvent): void {
    if (event.kind === 'breaker') {
      for (const breakers of this.#breakers) breakers.adopt(event.key, event.state, event.openedAt);
    } else if (event.kind === 'cooldown') {
      this.cooldowns.adopt(event.key, event.until, event.cause);
    } else {
      for (const policy of this.#policies) if (event.revision > policy.revision) void this.#reload(policy);
    }
  }

  async #reload(policy: ReloadablePolicy): Promise<void> {
    try {
      await policy.reload();
    } catch (error) {
      (this.#options.logger ?? silentStateLogger).warn(
        { error: error instanceof Error ? error.message : String(error) },
        'could not reload the model policy; keeping the switches in force',
      );
    }
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#unsubscribe();
    await this.#options.channel.close();
  }
}
