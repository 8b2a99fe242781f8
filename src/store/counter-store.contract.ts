import { afterEach, describe, expect, it } from 'vitest';
import { contractClock, type StoreExpiry } from './contract-clock.js';
import type { CounterStore } from './counter-store.js';

/**
 * The behaviour every `CounterStore` must have (memory, Redis). The factory gives a fresh, empty store reading
 * the time from `now`; `expiry` says who expires totals: the store by `now`, or a server (see `contract-clock.ts`).
 */
export function describeCounterStoreContract(
  name: string,
  factory: (options: { now: () => number }) => Promise<CounterStore> | CounterStore,
  expiry: StoreExpiry = 'clock',
): void {
  describe(`CounterStore contract: ${name}`, () => {
    const clock = contractClock(expiry);
    const opened: CounterStore[] = [];
    const open = async (): Promise<CounterStore> => {
      const store = await factory({ now: clock.now });
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('adds to totals, fractions included, and reads them back', async () => {
      const store = await open();
      expect(await store.get('key-1:day')).toBe(0);
      expect(await store.add('key-1:day', 1500, 60_000)).toBe(1500);
      expect(await store.add('key-1:day', 250, 60_000)).toBe(1750);
      expect(await store.add('key-1:cost', 0.25, 60_000)).toBeCloseTo(0.25, 12);
      expect(await store.add('key-1:cost', 0.5, 60_000)).toBeCloseTo(0.75, 12);
      expect(await store.get('key-1:day')).toBe(1750);
      expect(await store.get('key-2:day')).toBe(0);
    });

    it('counts concurrent adds exactly', async () => {
      const store = await open();
      await Promise.all(Array.from({ length: 50 }, () => store.add('busy', 3, 60_000)));
      expect(await store.get('busy')).toBe(150);
    });

    it('forgets a total once its TTL from creation has passed, and later adds do not extend it', { timeout: 60_000 }, async () => {
      const store = await open();
      const ttlMs = 150 * clock.scale;
      await store.add('short', 1, ttlMs);
      await clock.pass(100 * clock.scale);
      await store.add('short', 1, ttlMs);
      await clock.pass(100 * clock.scale);
      expect(await store.get('short')).toBe(0);
    });

    it('admits up to the limit within the window, then says when to retry', async () => {
      const store = await open();
      const at = Date.now();
      for (let index = 0; index < 3; index += 1) {
        expect(await store.admit('rpm', 3, 60_000, at + index)).toEqual({ admitted: true, count: index + 1, retryAfterMs: 0 });
      }
      const refused = await store.admit('rpm', 3, 60_000, at + 10);
      expect(refused.admitted).toBe(false);
      expect(refused.retryAfterMs).toBe(60_000 - 10);
      // The first event leaves the window: one more fits.
      expect((await store.admit('rpm', 3, 60_000, at + 60_001)).admitted).toBe(true);
    });

    it('admits exactly the limit under concurrency', async () => {
      const store = await open();
      const at = Date.now();
      const verdicts = await Promise.all(Array.from({ length: 20 }, (_, index) => store.admit('burst', 7, 60_000, at + index)));
      expect(verdicts.filter((verdict) => verdict.admitted)).toHaveLength(7);
    });
  });
}
