import type { CounterStore, WindowVerdict } from './counter-store.js';

/** One process's counters; the behaviour of the Redis store without the network. */
export class MemoryCounterStore implements CounterStore {
  readonly specificationVersion = 'v1' as const;
  readonly #totals = new Map<string, { value: number; expiresAt: number }>();
  readonly #windows = new Map<string, number[]>();
  /** Expired totals are dropped when the map reaches this size (day counters would otherwise pile up forever). */
  #sweepAt = 1_024;

  constructor(private readonly now: () => number = Date.now) {}

  async add(name: string, amount: number, ttlMs: number): Promise<number> {
    const now = this.now();
    const current = this.#totals.get(name);
    const entry = current && current.expiresAt > now ? current : { value: 0, expiresAt: now + ttlMs };
    entry.value += amount;
    this.#totals.set(name, entry);
    if (this.#totals.size >= this.#sweepAt) this.#sweep(now);
    return entry.value;
  }

  async get(name: string): Promise<number> {
    const entry = this.#totals.get(name);
    return entry && entry.expiresAt > this.now() ? entry.value : 0;
  }

  async admit(name: string, limit: number, windowMs: number, at: number): Promise<WindowVerdict> {
    const times = (this.#windows.get(name) ?? []).filter((time) => time > at - windowMs);
    if (times.length >= limit) {
      this.#windows.set(name, times);
      return { admitted: false, count: times.length, retryAfterMs: Math.max(1, (times[0] ?? at) + windowMs - at) };
    }
    times.push(at);
    this.#windows.set(name, times);
    return { admitted: true, count: times.length, retryAfterMs: 0 };
  }

  #sweep(now: number): void {
    for (const [name, entry] of this.#totals) if (entry.expiresAt <= now) this.#totals.delete(name);
    // Doubling keeps the sweeps' cost constant per add, however many totals stay live.
    this.#sweepAt = Math.max(1_024, this.#totals.size * 2);
  }

  async close(): Promise<void> {
    this.#totals.clear();
    this.#windows.clear();
  }
}
