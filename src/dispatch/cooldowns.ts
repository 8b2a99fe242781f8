import type { RestCause } from '../store/routing-state-channel.js';

export type { RestCause };

/**
 * Until-times for things that must rest: a key on a model after a 429, a 5xx, a timeout or a reset. Each rest
 * keeps why it was set, because only a 429's rest is worth waiting for within a request (the provider said when
 * to come back); a failure's rest means "move on", and a request never sleeps to ask a failed deployment again.
 */
export class Cooldowns {
  private readonly until = new Map<string, { until: number; cause: RestCause }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Rests `key` for `milliseconds`, unless it already rests longer (the longer rest, and its cause, stay). */
  rest(key: string, milliseconds: number, cause: RestCause = 'failed'): void {
    const until = this.now() + milliseconds;
    if (until > (this.until.get(key)?.until ?? 0)) this.until.set(key, { until, cause });
  }

  isResting(key: string): boolean {
    const rest = this.until.get(key);
    if (rest === undefined) return false;
    if (rest.until <= this.now()) {
      this.until.delete(key);
      return false;
    }
    return true;
  }

  /** Milliseconds until `key` may be used again (0 when usable now). */
  remaining(key: string): number {
    return Math.max(0, (this.until.get(key)?.until ?? 0) - this.now());
  }

  /** Like `remaining`, for a rest a request may wait out (a 429's); 0 for a failure's rest or none. */
  waitable(key: string): number {
    const rest = this.until.get(key);
    return rest?.cause === 'rate-limited' ? this.remaining(key) : 0;
  }
}
