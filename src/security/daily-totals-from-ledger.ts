import type { CounterStore } from '../store/counter-store.js';
import type { LedgerStore } from '../store/ledger-store.js';
import { MemoryCounterStore } from '../store/memory-counter-store.js';
import { KeyLimiter } from './key-limiter.js';

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
 * A ledger that cannot be read leaves the day at zero (logged): the limits are a budget guard, and they fail
 * open elsewhere too (`KeyLimiter`).
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
    options.logger?.warn(
      { error: error instanceof Error ? error.message : String(error) },
      "the ledger could not be read at start: per-key daily totals start at zero today",
    );
  }
  return counters;
}
