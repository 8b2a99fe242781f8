import type { BudgetCharge, BudgetCounterStore, BudgetTotals, Reservation } from '../budget-counter-store.js';

interface Counter {
  spent: number;
  expiresAt: number;
  /** holdId → amount and expiry. */
  holds: Map<string, { amount: number; expiresAt: number }>;
}

/** One process's budget counters: the Redis store's behaviour without the network (single-threaded, so atomic). */
export class MemoryBudgetCounterStore implements BudgetCounterStore {
  readonly specificationVersion = 'v1' as const;
  readonly #counters = new Map<string, Counter>();
  /** Expired counters are dropped when the map reaches this size (session counters would otherwise pile up). */
  #sweepAt = 1_024;

  constructor(private readonly now: () => number = Date.now) {}

  async reserve(holdId: string, charges: readonly BudgetCharge[], holdMs: number, at: number): Promise<Reservation> {
    const committed = charges.map((charge) => this.#committed(charge.name, at));
    const refusedIndex = charges.findIndex((charge, index) => charge.limit !== undefined && (committed[index] ?? 0) >= charge.limit);
    if (refusedIndex >= 0) return { admitted: false, refusedIndex, committed };
    for (const charge of charges) this.#counter(charge.name, charge.ttlMs).holds.set(holdId, { amount: charge.amount, expiresAt: at + holdMs });
    return { admitted: true, committed };
  }

  async settle(holdId: string, held: readonly string[], spent: readonly BudgetCharge[]): Promise<void> {
    for (const name of held) this.#counters.get(name)?.holds.delete(holdId);
    for (const charge of spent) if (charge.amount > 0) this.#counter(charge.name, charge.ttlMs).spent += charge.amount;
  }

  async read(names: readonly string[], at: number): Promise<BudgetTotals[]> {
    return names.map((name) => {
      const counter = this.#live(name);
      if (!counter) return { spent: 0, held: 0 };
      return { spent: counter.spent, held: this.#held(counter, at) };
    });
  }

  async seed(name: string, amount: number, ttlMs: number): Promise<void> {
    if (this.#live(name)) return;
    this.#counter(name, ttlMs).spent = amount;
  }

  async close(): Promise<void> {
    this.#counters.clear();
  }

  #committed(name: string, at: number): number {
    const counter = this.#live(name);
    return counter ? counter.spent + this.#held(counter, at) : 0;
  }

  #held(counter: Counter, at: number): number {
    let total = 0;
    for (const [holdId, hold] of counter.holds) {
      if (hold.expiresAt <= at) counter.holds.delete(holdId);
      else total += hold.amount;
    }
    return total;
  }

  #live(name: string): Counter | undefined {
    const counter = this.#counters.get(name);
    if (counter && counter.expiresAt <= this.now()) {
      this.#counters.delete(name);
      return undefined;
    }
    return counter;
  }

  #counter(name: string, ttlMs: number): Counter {
    const live = this.#live(name);
    if (live) return live;
    const created: Counter = { spent: 0, expiresAt: this.now() + ttlMs, holds: new Map() };
    this.#counters.set(name, created);
    if (this.#counters.size >= this.#sweepAt) {
      const now = this.now();
      for (const [key, counter] of this.#counters) if (counter.expiresAt <= now) this.#counters.delete(key);
      this.#sweepAt = Math.max(1_024, this.#counters.size * 2);
    }
    return created;
  }
}
