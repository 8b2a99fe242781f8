import { describe, expect, it } from 'vitest';
import type { SemanticCacheEntry, SemanticCacheStore } from './semantic-cache-store.js';

const entry = (answerKey: string, vector: number[] = [0.5, 0.75]): SemanticCacheEntry => ({ vector, answerKey, storedAt: 1 });
const limits = { maxEntries: 3, ttlMs: 60_000 };
/** Vectors as plain arrays: a store may return Float32Arrays. */
const plain = (entries: SemanticCacheEntry[]) => entries.map((stored) => ({ ...stored, vector: Array.from(stored.vector) }));

const answerKeys = (entries: SemanticCacheEntry[]) => entries.map((stored) => stored.answerKey);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The contract every semantic-cache store passes (memory, Redis). `sibling` opens a second handle on the same
 * data as `store` (for Redis another instance's store, with its own mirror; for memory the same store), so that
 * what one instance adds is checked from another that has already read the namespace.
 */
export function describeSemanticCacheStoreContract(
  name: string,
  factory: () => Promise<SemanticCacheStore>,
  sibling: (store: SemanticCacheStore) => SemanticCacheStore,
): void {
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

    it('each handle sees the adds of the other, also after it has read the namespace', async () => {
      const first = await factory();
      const second = sibling(first);
      await first.add('shared', entry('a'), limits);
      expect(answerKeys(await second.entries('shared'))).toEqual(['a']);
      await second.add('shared', entry('b'), limits);
      expect(answerKeys(await first.entries('shared'))).toEqual(['b', 'a']);
      await first.add('shared', entry('c'), limits);
      expect(answerKeys(await second.entries('shared'))).toEqual(['c', 'b', 'a']);
      expect(answerKeys(await first.entries('shared'))).toEqual(['c', 'b', 'a']);
      await first.close();
      await second.close();
    });

    it('a handle that has read the namespace sees the trimmed list after the other adds past maxEntries', async () => {
      const first = await factory();
      const second = sibling(first);
      for (const key of ['1', '2', '3']) await first.add('trimmed', entry(key), limits);
      expect(answerKeys(await first.entries('trimmed'))).toEqual(['3', '2', '1']);
      await second.add('trimmed', entry('4'), limits);
      expect(answerKeys(await first.entries('trimmed'))).toEqual(['4', '3', '2']);
      for (const key of ['5', '6', '7', '8']) await second.add('trimmed', entry(key), limits);
      expect(answerKeys(await first.entries('trimmed'))).toEqual(['8', '7', '6']);
      await first.close();
      await second.close();
    });

    it('adds from both handles at once all land (within maxEntries), and both handles agree', async () => {
      const first = await factory();
      const second = sibling(first);
      const wide = { maxEntries: 50, ttlMs: 60_000 };
      await first.entries('concurrent');
      await second.entries('concurrent');
      const keys = Array.from({ length: 20 }, (_, index) => `k${index}`);
      await Promise.all(
        keys.map(async (key, index) => {
          const handle = index % 2 === 0 ? first : second;
          await handle.add('concurrent', entry(key), wide);
          await handle.entries('concurrent');
        }),
      );
      const seenByFirst = answerKeys(await first.entries('concurrent'));
      expect([...seenByFirst].sort()).toEqual([...keys].sort());
      expect(answerKeys(await second.entries('concurrent'))).toEqual(seenByFirst);
      await first.close();
      await second.close();
    });

    it('an entry is not returned after its own time to live, even from a handle that has read it', async () => {
      const store = await factory();
      const other = sibling(store);
      await store.add('mixed', entry('short'), { maxEntries: 3, ttlMs: 400 });
      await store.add('mixed', entry('long'), limits);
      expect(answerKeys(await other.entries('mixed'))).toEqual(['long', 'short']);
      await sleep(600);
      expect(answerKeys(await other.entries('mixed'))).toEqual(['long']);
      await store.close();
      await other.close();
    });

    it('a namespace that expired is not served from a handle that had read it, and starts afresh', async () => {
      const store = await factory();
      const other = sibling(store);
      // Long enough that a loaded machine still reads both namespaces before they expire.
      const brief = { maxEntries: 3, ttlMs: 400 };
      for (const namespace of ['fleeting', 'refilled']) {
        await store.add(namespace, entry('old 1'), brief);
        await store.add(namespace, entry('old 2'), brief);
        expect(answerKeys(await other.entries(namespace))).toEqual(['old 2', 'old 1']);
      }
      await sleep(600);
      expect(await other.entries('fleeting')).toEqual([]);
      // 'refilled' is not read in between: three new adds must not be taken for one more after the two old ones.
      for (const key of ['new 1', 'new 2', 'new 3']) await store.add('refilled', entry(key), limits);
      expect(answerKeys(await other.entries('refilled'))).toEqual(['new 3', 'new 2', 'new 1']);
      await store.add('fleeting', entry('new'), limits);
      expect(answerKeys(await other.entries('fleeting'))).toEqual(['new']);
      await store.close();
      await other.close();
    });
  });
}
