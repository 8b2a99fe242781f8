import type { CounterStore } from '../store/counter-store.js';
import type { LedgerStore } from '../store/ledger-store.js';
import { MemoryCounterStore } from '../store/memory-counter-store.js';
import { KeyLimiter } from './key-limiter.js';
import { UnreadableDayTotals } from './unreadable-day-totals.js';

function startOfUtcDay(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/**
 * A single instance's per-key counters, started from today's (UTC) ledger rows: each key's tokens (input +
 * output) and cost, so a restart does not hand every key a fresh `tokens_per_day` / `cost_per_day_usd` budget.
 * Built before the gateway listens, so no request is counted twice (its row is not in the ledger yet). A cluster
 * does not need it: its totals are in Redis and survive restarts.
 *
 * A ledger that cannot be read (corrupted, a disk error) must not hand every key a fresh day: the counters
 * returned then refuse today's daily totals (`UnreadableDayTotals`), so keys with `tokens_per_day` or
 * `cost_per_day_usd` are refused (503) for the rest of the UTC day, or until a restart reads the ledger. Keys
 * without daily limits are unaffected. This fails closed, unlike a Redis outage in a cluster (`KeyLimiter`):
 * there the totals still exist and come back; here they are lost for the day.
 */
export async function dailyTotalsFromLedger(
  ledger: Pick<LedgerStore, 'clientKeys'>,
  options: { now?: () => number; logger?: { warn(details: Record<string, unknown>, message: string): void } } = {},
): Promise<CounterStore> {
  const now = options.now ?? Date.now;
  const counters = new MemoryCounterStore(now);
  const limiter = new KeyLimiter({ counters, now });
  try {
    const rows = await ledger.clientKeys({ since: startOfUtcDay(now()) });
    await Promise.all(rows.map((row) => limiter.recordUsage(row.clientKeyId, row.inputTokens + row.outputTokens, row.costUsd)));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    options.logger?.warn(
      { error: detail },
      'the ledger could not be read at start: keys with a daily limit are refused today (their totals are unknown)',
    );
    const today = new Date(now()).toISOString().slice(0, 10);
    return new UnreadableDayTotals(today, `today's per-key daily totals could not be read from the ledger (${detail})`, now);
  }
  return counters;
}
