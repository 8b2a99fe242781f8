import type { CounterStore } from '../store/counter-store.js';
import { MemoryCounterStore } from '../store/memory-counter-store.js';
import type { KeyLimits } from '../store/keys/key-record.js';
import { DayTotalsUnknownError } from './unreadable-day-totals.js';

export interface LimitVerdict {
  /** Undefined when the request may go ahead. */
  exceeded?: 'requests_per_minute' | 'tokens_per_day' | 'cost_per_day_usd';
  /** The key has a daily limit and today's totals are unknown (`UnreadableDayTotals`): refuse, saying why. */
  unknownTotals?: string;
  retryAfterMs: number;
}

/** Where the limiter reports that the counters failed and it let a request through uncounted. */
export interface LimiterLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export interface KeyLimiterOptions {
  /** Memory for one instance; Redis in a cluster, so every instance enforces one limit. */
  counters?: CounterStore;
  now?: () => number;
  logger?: LimiterLogger;
}

const minuteMs = 60_000;
/** A day counter outlives its day by this much, so a clock a little behind still finds it. */
const dayCounterGraceMs = 60 * 60_000;

function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

function untilNextUtcDay(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) - at;
}

/** Whether any limit needs the counters; keys without one never wait on them. */
export function hasCountedLimits(limits: KeyLimits): boolean {
  return limits.requests_per_minute !== undefined || limits.tokens_per_day !== undefined || limits.cost_per_day_usd !== undefined;
}

/**
 * Per-key limits over a `CounterStore`: a sliding minute of requests (`admit`) and the UTC day's tokens and cost
 * (`add`/`get` on `key:<id>:tokens:<day>`, `key:<id>:cost:<day>`, expiring after their day). With the Redis
 * counters every instance counts into the same totals and daily totals survive a restart.
 *
 * Fails open: when the counters cannot answer, the request goes ahead uncounted. A limit is a budget guard, not
 * an authentication step, and refusing every keyed request while Redis is away would turn a cache outage into a
 * full outage. The first failure of an outage is logged, the recovery too, and every request let through uncounted
 * is counted (`failedOpen`, `onFailOpen`).
 */
export class KeyLimiter {
  readonly counters: CounterStore;
  readonly #now: () => number;
  readonly #logger: LimiterLogger | undefined;
  readonly #failOpenListeners: (() => void)[] = [];
  #failing = false;
  #failedOpen = 0;

  constructor(options: KeyLimiterOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.counters = options.counters ?? new MemoryCounterStore(this.#now);
    this.#logger = options.logger;
  }

  /** Requests let through uncounted because the counters failed, since start. */
  get failedOpen(): number {
    return this.#failedOpen;
  }

  onFailOpen(listener: () => void): void {
    this.#failOpenListeners.push(listener);
  }

  /**
   * Checks every limit and, when none is exceeded, counts this request against the minute. The day's totals are
   * read first so a request refused for its budget does not take a slot of the minute.
   */
  async admit(keyId: string, limits: KeyLimits): Promise<LimitVerdict> {
    const now = this.#now();
    try {
      const day = utcDay(now);
      const [tokens, costUsd] = await Promise.all([
        limits.tokens_per_day === undefined ? 0 : this.counters.get(`key:${keyId}:tokens:${day}`),
        limits.cost_per_day_usd === undefined ? 0 : this.counters.get(`key:${keyId}:cost:${day}`),
      ]);
      if (limits.tokens_per_day !== undefined && tokens >= limits.tokens_per_day) {
        return this.#succeeded({ exceeded: 'tokens_per_day', retryAfterMs: untilNextUtcDay(now) });
      }
      if (limits.cost_per_day_usd !== undefined && costUsd >= limits.cost_per_day_usd) {
        return this.#succeeded({ exceeded: 'cost_per_day_usd', retryAfterMs: untilNextUtcDay(now) });
      }
      if (limits.requests_per_minute !== undefined) {
        const verdict = await this.counters.admit(`key:${keyId}:minute`, limits.requests_per_minute, minuteMs, now);
        if (!verdict.admitted) return this.#succeeded({ exceeded: 'requests_per_minute', retryAfterMs: verdict.retryAfterMs });
      }
      return this.#succeeded({ retryAfterMs: 0 });
    } catch (error) {
      // Not an outage of the counters: the day's totals are lost, so the budget stays closed.
      if (error instanceof DayTotalsUnknownError) return { unknownTotals: error.reason, retryAfterMs: untilNextUtcDay(now) };
      this.#failed('admit', error);
      this.#failedOpen += 1;
      for (const listener of this.#failOpenListeners) listener();
      return { retryAfterMs: 0 };
    }
  }

  /**
   * Adds a finished request's tokens and cost to its key's day. The adds start before this returns (the memory
   * counters have counted by then); the promise settles once they are stored and never rejects.
   */
  recordUsage(keyId: string, tokens: number, costUsd: number): Promise<void> {
    const now = this.#now();
    const day = utcDay(now);
    const ttlMs = untilNextUtcDay(now) + dayCounterGraceMs;
    const adds = [
      tokens > 0 ? this.counters.add(`key:${keyId}:tokens:${day}`, tokens, ttlMs) : undefined,
      costUsd > 0 ? this.counters.add(`key:${keyId}:cost:${day}`, costUsd, ttlMs) : undefined,
    ];
    return Promise.all(adds).then(
      () => void this.#succeeded(undefined),
      (error: unknown) => this.#failed('record usage', error),
    );
  }

  /** The key's totals for the current UTC day. */
  async today(keyId: string): Promise<{ tokens: number; costUsd: number }> {
    const day = utcDay(this.#now());
    const [tokens, costUsd] = await Promise.all([this.counters.get(`key:${keyId}:tokens:${day}`), this.counters.get(`key:${keyId}:cost:${day}`)]);
    return { tokens, costUsd };
  }

  #succeeded<Value>(value: Value): Value {
    if (this.#failing) {
      this.#failing = false;
      this.#logger?.info({}, 'per-key limit counters answer again; limits are enforced');
    }
    return value;
  }

  #failed(operation: string, error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#logger?.warn(
      { operation, error: error instanceof Error ? error.message : String(error) },
      'per-key limit counters unreachable; admitting keyed requests without counting them until they answer',
    );
  }
}
