import type { KeyLimits } from './key-record.js';

export interface LimitVerdict {
  /** Undefined when the request may go ahead. */
  exceeded?: 'requests_per_minute' | 'tokens_per_day' | 'cost_per_day_usd';
  retryAfterMs: number;
}

interface DailyUsage {
  day: string;
  tokens: number;
  costUsd: number;
}

const minuteMs = 60_000;

function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

function untilNextUtcDay(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) - at;
}

/**
 * Per-key limits, in memory: a sliding minute of request times and the UTC day's tokens and cost. State is per
 * key id, so it is bounded by the number of keys. Daily totals restart with the process.
 */
export class KeyLimiter {
  private readonly recent = new Map<string, number[]>();
  private readonly daily = new Map<string, DailyUsage>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Checks every limit and, when none is exceeded, counts this request against the minute. */
  admit(keyId: string, limits: KeyLimits): LimitVerdict {
    const now = this.now();
    const usage = this.usage(keyId, now);
    if (limits.tokens_per_day !== undefined && usage.tokens >= limits.tokens_per_day) {
      return { exceeded: 'tokens_per_day', retryAfterMs: untilNextUtcDay(now) };
    }
    if (limits.cost_per_day_usd !== undefined && usage.costUsd >= limits.cost_per_day_usd) {
      return { exceeded: 'cost_per_day_usd', retryAfterMs: untilNextUtcDay(now) };
    }
    const perMinute = limits.requests_per_minute;
    if (perMinute !== undefined) {
      const times = (this.recent.get(keyId) ?? []).filter((time) => time > now - minuteMs);
      if (times.length >= perMinute) {
        this.recent.set(keyId, times);
        return { exceeded: 'requests_per_minute', retryAfterMs: Math.max(1, (times[0] ?? now) + minuteMs - now) };
      }
      times.push(now);
      this.recent.set(keyId, times);
    }
    return { retryAfterMs: 0 };
  }

  /** Adds a finished request's tokens and cost to its key's day. */
  recordUsage(keyId: string, tokens: number, costUsd: number): void {
    const usage = this.usage(keyId, this.now());
    usage.tokens += tokens;
    usage.costUsd += costUsd;
  }

  today(keyId: string): { tokens: number; costUsd: number } {
    const { tokens, costUsd } = this.usage(keyId, this.now());
    return { tokens, costUsd };
  }

  private usage(keyId: string, now: number): DailyUsage {
    const day = utcDay(now);
    let usage = this.daily.get(keyId);
    if (!usage || usage.day !== day) {
      usage = { day, tokens: 0, costUsd: 0 };
      this.daily.set(keyId, usage);
    }
    return usage;
  }
}
