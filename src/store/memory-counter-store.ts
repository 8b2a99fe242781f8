import type { CounterStore, WindowVerdict } from './counter-store.js';

/** One process's counters; the behaviour of the Redis store without the network. */
export class MemoryCounterStore implements CounterStore {
  readonly specificationVersion = 'v1' as const;
  readonly #totals = new Map<string, { value: number; expiresAt: number }>();
  readonly #windows = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  async add(name: string, amount: number, ttlMs: number): Promise<number> {
    const now = this.now();
    const current = this.#totals.get(name);
    const entry = current && current.expiresAt > now ? current : { value: 0, expiresAt: now + ttlMs };
    entry.value += amount;
    this.#totals.set(name, entry);
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

  async close(): Promise<void> {
    this.#totals.clear();
    this.#windows.clear();
  }
}
