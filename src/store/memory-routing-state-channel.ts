import { randomUUID } from 'node:crypto';
import type { BreakerSettings, RoutingStateChannel, RoutingStateEvent, RoutingStateSnapshot } from './routing-state-channel.js';

/** The shared part: what Redis holds in a cluster. Give the same hub to every instance that should share. */
export class MemoryRoutingStateHub {
  readonly calls = new Map<string, { at: number; ok: boolean }[]>();
  readonly openBreakers = new Map<string, number>();
  readonly cooldowns = new Map<string, number>();
  readonly channels = new Set<MemoryRoutingStateChannel>();

  channel(instanceId: string = randomUUID()): MemoryRoutingStateChannel {
    const channel = new MemoryRoutingStateChannel(this, instanceId);
    this.channels.add(channel);
    return channel;
  }
}

/** One instance's view of a `MemoryRoutingStateHub`; the same semantics as the Redis channel, synchronously. */
export class MemoryRoutingStateChannel implements RoutingStateChannel {
  readonly specificationVersion = 'v1' as const;
  readonly #listeners = new Set<(event: RoutingStateEvent) => void>();

  constructor(
    private readonly hub: MemoryRoutingStateHub,
    readonly instanceId: string,
  ) {}

  async recordOutcome(key: string, ok: boolean, settings: BreakerSettings, at: number): Promise<boolean> {
    const openedAt = this.hub.openBreakers.get(key);
    if (openedAt !== undefined && openedAt + settings.openMs > at) return false;
    const horizon = at - settings.windowMs;
    const calls = [...(this.hub.calls.get(key) ?? []), { at, ok }].filter((call) => call.at >= horizon);
    this.hub.calls.set(key, calls);
    if (calls.length < settings.minCalls) return false;
    const failures = calls.filter((call) => !call.ok).length;
    if (failures / calls.length < settings.failureRate) return false;
    this.hub.openBreakers.set(key, at);
    this.hub.calls.delete(key);
    return true;
  }

  async publish(event: RoutingStateEvent): Promise<void> {
    if (event.kind === 'breaker') {
      if (event.state === 'open') this.hub.openBreakers.set(event.key, event.openedAt);
      else this.hub.openBreakers.delete(event.key);
    } else if (event.kind === 'cooldown') {
      if (event.until > (this.hub.cooldowns.get(event.key) ?? 0)) this.hub.cooldowns.set(event.key, event.until);
    }
    for (const channel of this.hub.channels) {
      if (channel !== this) channel.deliver(structuredClone(event));
    }
  }

  deliver(event: RoutingStateEvent): void {
    // Asynchronous like a real pub/sub message, so no listener runs inside the publisher's call.
    queueMicrotask(() => {
      for (const listener of this.#listeners) listener(event);
    });
  }

  subscribe(listener: (event: RoutingStateEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async snapshot(openMs: number, now: number): Promise<RoutingStateSnapshot> {
    const openBreakers: Record<string, number> = {};
    for (const [key, openedAt] of this.hub.openBreakers) if (openedAt + openMs > now) openBreakers[key] = openedAt;
    const cooldowns: Record<string, number> = {};
    for (const [key, until] of this.hub.cooldowns) if (until > now) cooldowns[key] = until;
    return { openBreakers, cooldowns };
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.hub.channels.delete(this);
  }
}
