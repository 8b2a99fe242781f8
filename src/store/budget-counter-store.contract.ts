import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetCounterStore } from './budget-counter-store.js';

/** The behaviour every `BudgetCounterStore` must have (memory, Redis). The factory gives a fresh, empty store. */
export function describeBudgetCounterStoreContract(name: string, factory: () => Promise<BudgetCounterStore> | BudgetCounterStore): void {
  describe(`BudgetCounterStore contract: ${name}`, () => {
    const opened: BudgetCounterStore[] = [];
    const open = async (): Promise<BudgetCounterStore> => {
      const store = await factory();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });
    const day = 60_000;

    it('holds an estimate, then settles it into what was really spent, fractions included', async () => {
      const store = await open();
      const at = Date.now();
      const first = await store.reserve('r1', [{ name: 'usd', amount: 0.25, limit: 1, ttlMs: day }, { name: 'tokens', amount: 100, ttlMs: day }], 10_000, at);
      expect(first).toEqual({ admitted: true, committed: [0, 0] });
      expect(await store.read(['usd', 'tokens'], at)).toEqual([{ spent: 0, held: 0.25 }, { spent: 0, held: 100 }]);
      await store.settle('r1', ['usd', 'tokens'], [{ name: 'usd', amount: 0.125, ttlMs: day }, { name: 'tokens', amount: 80, ttlMs: day }]);
      const [usd, tokens] = await store.read(['usd', 'tokens'], at);
      expect(usd?.spent).toBeCloseTo(0.125, 12);
      expect(usd?.held).toBe(0);
      expect(tokens).toEqual({ spent: 80, held: 0 });
    });

    it('refuses once spent plus held reaches a limit, naming the counter, and holds nothing then', async () => {
      const store = await open();
      const at = Date.now();
      await store.settle('seed', [], [{ name: 'day', amount: 7, ttlMs: day }]);
      expect((await store.reserve('a', [{ name: 'day', amount: 3, limit: 10, ttlMs: day }], 10_000, at)).admitted).toBe(true);
      const refused = await store.reserve('b', [{ name: 'other', amount: 1, limit: 5, ttlMs: day }, { name: 'day', amount: 1, limit: 10, ttlMs: day }], 10_000, at);
      expect(refused).toEqual({ admitted: false, refusedIndex: 1, committed: [0, 10] });
      expect(await store.read(['other'], at)).toEqual([{ spent: 0, held: 0 }]);
      // Released, the budget is below its limit again.
      await store.settle('a', ['day'], [{ name: 'day', amount: 2, ttlMs: day }]);
      expect((await store.reserve('c', [{ name: 'day', amount: 1, limit: 10, ttlMs: day }], 10_000, at)).admitted).toBe(true);
    });

    it('admits concurrent reservations only while the committed total is under the limit', async () => {
      const store = await open();
      const at = Date.now();
      const verdicts = await Promise.all(Array.from({ length: 40 }, (_, index) => store.reserve(`r${index}`, [{ name: 'burst', amount: 3, limit: 20, ttlMs: day }], 10_000, at)));
      // 0, 3, …, 18 are under 20: seven holds fit, the seventh ends at 21 (one request over, never more).
      expect(verdicts.filter((verdict) => verdict.admitted)).toHaveLength(7);
      expect(await store.read(['burst'], at)).toEqual([{ spent: 0, held: 21 }]);
    });

    it('forgets a hold once it expires (an instance that died mid-request)', async () => {
      const store = await open();
      const at = Date.now();
      await store.reserve('lost', [{ name: 'x', amount: 5, limit: 5, ttlMs: day }], 1_000, at);
      expect((await store.reserve('next', [{ name: 'x', amount: 1, limit: 5, ttlMs: day }], 1_000, at + 10)).admitted).toBe(false);
      expect((await store.reserve('later', [{ name: 'x', amount: 1, limit: 5, ttlMs: day }], 1_000, at + 1_001)).admitted).toBe(true);
    });

    it('seeds a total only when the counter has none', async () => {
      const store = await open();
      const at = Date.now();
      await store.seed('rebuilt', 4.5, day);
      await store.seed('rebuilt', 99, day);
      expect(await store.read(['rebuilt'], at)).toEqual([{ spent: 4.5, held: 0 }]);
    });
  });
}
