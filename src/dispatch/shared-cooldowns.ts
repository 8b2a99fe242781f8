import { Cooldowns } from './cooldowns.js';
import type { RestCause } from './cooldowns.js';
import type { SharedStateHealth } from '../store/redis/redis-health.js';
import type { RoutingStateChannel } from '../store/routing-state-channel.js';

/**
 * Cooldowns every instance honours: a key that got a 429 on one instance rests on all of them. Reads stay local
 * and synchronous; a rest is announced in the background and rests announced elsewhere are adopted as they
 * arrive. Until-times are absolute, so instances need clocks in step (NTP) within a fraction of a cooldown.
 */
export class SharedCooldowns extends Cooldowns {
  readonly #channel: RoutingStateChannel;
  readonly #health: SharedStateHealth;
  readonly #now: () => number;

  constructor(channel: RoutingStateChannel, health: SharedStateHealth, now: () => number = Date.now) {
    super(now);
    this.#channel = channel;
    this.#health = health;
    this.#now = now;
  }

  override rest(key: string, milliseconds: number, cause: RestCause = 'failed'): void {
    super.rest(key, milliseconds, cause);
    const channel = this.#channel;
    channel.publish({ kind: 'cooldown', key, until: this.#now() + milliseconds, origin: channel.instanceId, cause }).then(
      () => this.#health.succeeded(),
      (error: unknown) => this.#health.failed('cooldown publish', error),
    );
  }

  /** A rest announced by another instance, or found in a snapshot (which keeps no cause: counted as a failure's). */
  adopt(key: string, until: number, cause: RestCause = 'failed'): void {
    const remaining = until - this.#now();
    if (remaining > 0) super.rest(key, remaining, cause);
  }
}
