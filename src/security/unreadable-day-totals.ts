import type { CounterStore, WindowVerdict } from '../store/counter-store.js';
import { MemoryCounterStore } from '../store/memory-counter-store.js';

/** Today's per-key totals are not known: a daily limit on them must refuse, not count from zero. */
export class DayTotalsUnknownError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'DayTotalsUnknownError';
  }
}

const dayTotal = /:(?:tokens|cost):(\d{4}-\d{2}-\d{2})$/;

/**
 * One instance's counters when the ledger could not be read at start: the day it started on has rows nobody
 * could add up, so reading a daily total of that day rejects with `DayTotalsUnknownError` (the limiter then
 * refuses the key: its budget stays closed). Everything else counts in memory as usual, and from the next UTC
 * day on the totals are complete again (every request since start was counted), so the store opens by itself.
 */
export class UnreadableDayTotals implements CounterStore {
  readonly specificationVersion = 'v1' as const;
  readonly #memory: MemoryCounterStore;

  constructor(
    readonly unknownDay: string,
    readonly reason: string,
    now: () => number = Date.now,
  ) {
    this.#memory = new MemoryCounterStore(now);
  }

  add(name: string, amount: number, ttlMs: number): Promise<number> {
    return this.#memory.add(name, amount, ttlMs);
  }

  get(name: string): Promise<number> {
    if (dayTotal.exec(name)?.[1] === this.unknownDay) return Promise.reject(new DayTotalsUnknownError(this.reason));
    return this.#memory.get(name);
  }

  admit(name: string, limit: number, windowMs: number, at: number): Promise<WindowVerdict> {
    return this.#memory.admit(name, limit, windowMs, at);
  }

  close(): Promise<void> {
    return this.#memory.close();
  }
}
