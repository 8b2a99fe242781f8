import { describe, expect, it } from 'vitest';
import type { SemanticCacheEntry, SemanticCacheStore } from './semantic-cache-store.js';

const entry = (answerKey: string, vector: number[] = [0.5, 0.75]): SemanticCacheEntry => ({ vector, answerKey, storedAt: 1 });
const limits = { maxEntries: 3, ttlMs: 60_000 };
/** Vectors as plain arrays: a store may return Float32Arrays. */
const plain = (entries: SemanticCacheEntry[]) => entries.map((stored) => ({ ...stored, vector: Array.from(stored.vector) }));

/** The contract every semantic-cache store passes (memory, Redis). */
export function describeSemanticCacheStoreContract(name: string, factory: () => Promise<SemanticCacheStore>): void {
  describe(`SemanticCacheStore contract: ${name}`, () => {
    it('returns what was added to a namespace, newest first, and nothing for another namespace', async () => {
      const store = await factory();
      await store.add('n1', entry('a', [1, 0]), limits);
      await store.add('n1', entry('b', [0, 1]), limits);
      await store.add('n2', entry('c'), limits);
      expect(plain(await store.entries('n1'))).toEqual([entry('b', [0, 1]), entry('a', [1, 0])]);
      expect(plain(await store.entries('n2'))).toEqual([entry('c')]);
      expect(await store.entries('unknown')).toEqual([]);
      await store.close();
    });

    it('keeps vectors exactly enough to compare (float32 precision at least)', async () => {
      const store = await factory();
      const vector = [0.123456789, -0.987654321, 0.5];
      await store.add('precise', entry('p', vector), limits);
      const [stored] = await store.entries('precise');
      const values = Array.from(stored?.vector ?? []);
      values.forEach((value, index) => expect(value).toBeCloseTo(vector[index] as number, 6));
      expect(values).toHaveLength(3);
      await store.close();
    });

    it('keeps at most maxEntries per namespace, dropping the oldest', async () => {
      const store = await factory();
      for (const key of ['1', '2', '3', '4', '5']) await store.add('bounded', entry(key), limits);
      expect((await store.entries('bounded')).map((stored) => stored.answerKey)).toEqual(['5', '4', '3']);
      await store.close();
    });

    it('forgets entries after their time to live', async () => {
      const store = await factory();
      await store.add('short', entry('soon gone'), { maxEntries: 3, ttlMs: 30 });
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await store.entries('short')).toEqual([]);
      await store.close();
    });
  });
}
