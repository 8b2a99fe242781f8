import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { SemanticCacheEntry, SemanticCacheStore } from '../semantic-cache-store.js';
import { describeSemanticCacheStoreContract } from '../semantic-cache-store.contract.js';
import { RedisSemanticCacheStore } from './redis-semantic-cache-store.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from './redis-test-support.js';

const available = await redisAvailable();
if (!available) console.warn(`skipping the Redis semantic cache store contract and mirror tests: no server at ${redisTestUrl}`);

describe.skipIf(!available)('redis semantic cache store', () => {
  const prefix = uniqueKeyPrefix('semantic-cache');
  // Two connections, as two instances would have; a sibling store has its own mirror.
  const client = new Redis(redisTestUrl);
  const otherClient = new Redis(redisTestUrl);
  const prefixes = new Map<SemanticCacheStore, string>();
  let run = 0;
  afterAll(async () => {
    await deleteKeyPrefixes([prefix]);
    client.disconnect();
    otherClient.disconnect();
  });
  describeSemanticCacheStoreContract(
    'redis',
    async () => {
      const keyPrefix = `${prefix}${++run}:`;
      const store = new RedisSemanticCacheStore(client, keyPrefix);
      prefixes.set(store, keyPrefix);
      return store;
    },
    (store) => new RedisSemanticCacheStore(otherClient, prefixes.get(store) ?? ''),
  );

  const limits = { maxEntries: 8, ttlMs: 60_000 };
  const entry = (answerKey: string): SemanticCacheEntry => ({ vector: [0.6, 0.8, 0, 0], answerKey, storedAt: 1 });
  const answerKeys = (entries: SemanticCacheEntry[]) => entries.map((stored) => stored.answerKey);

  /** A connection whose lookups report how many list elements each one brought back (the reply after its 4 header fields). */
  function countingClient(): { client: Redis; fetched: () => Promise<number[]> } {
    const counted = new Redis(redisTestUrl);
    const spy = vi.spyOn(counted, 'eval');
    return {
      client: counted,
      fetched: async () => {
        const replies = await Promise.all(spy.mock.results.map((result) => result.value as Promise<unknown>));
        spy.mockClear();
        return replies.filter((reply): reply is unknown[] => Array.isArray(reply)).map((reply) => Math.max(0, reply.length - 4));
      },
    };
  }

  it('a lookup fetches only the elements added since this instance last read the namespace', async () => {
    const keyPrefix = `${prefix}incremental:`;
    const reader = countingClient();
    const writer = new RedisSemanticCacheStore(otherClient, keyPrefix);
    const store = new RedisSemanticCacheStore(reader.client, keyPrefix);
    try {
      for (const key of ['1', '2', '3', '4', '5']) await writer.add('n', entry(key), limits);
      expect(answerKeys(await store.entries('n'))).toEqual(['5', '4', '3', '2', '1']);
      expect(await reader.fetched()).toEqual([5]);
      expect(answerKeys(await store.entries('n'))).toEqual(['5', '4', '3', '2', '1']);
      expect(await reader.fetched()).toEqual([0]);
      await writer.add('n', entry('6'), limits);
      expect(answerKeys(await store.entries('n'))).toEqual(['6', '5', '4', '3', '2', '1']);
      expect(await reader.fetched()).toEqual([1]);
      for (const key of ['7', '8', '9']) await writer.add('n', entry(key), limits);
      expect(answerKeys(await store.entries('n'))).toEqual(['9', '8', '7', '6', '5', '4', '3', '2']);
      expect(await reader.fetched()).toEqual([3]);
      // More adds than the list holds since the last read: the whole list, once.
      for (const key of ['10', '11', '12', '13', '14', '15', '16', '17', '18']) await writer.add('n', entry(key), limits);
      expect(answerKeys(await store.entries('n'))).toEqual(['18', '17', '16', '15', '14', '13', '12', '11']);
      expect(await reader.fetched()).toEqual([8]);
      // The vectors survive the mirror unchanged.
      const [newest] = await store.entries('n');
      expect(Array.from(newest?.vector ?? []).map((value) => Number(value.toFixed(6)))).toEqual([0.6, 0.8, 0, 0]);
    } finally {
      reader.client.disconnect();
    }
  });

  it('keys deleted under a mirror (eviction, FLUSHDB) are never served, and a new generation is read whole', async () => {
    const keyPrefix = `${prefix}deleted:`;
    const reader = countingClient();
    const writer = new RedisSemanticCacheStore(otherClient, keyPrefix);
    const store = new RedisSemanticCacheStore(reader.client, keyPrefix);
    try {
      for (const key of ['a', 'b']) await writer.add('gone', entry(key), limits);
      for (const key of ['a', 'b']) await writer.add('refilled', entry(key), limits);
      expect(answerKeys(await store.entries('gone'))).toEqual(['b', 'a']);
      expect(answerKeys(await store.entries('refilled'))).toEqual(['b', 'a']);
      await otherClient.del(`${keyPrefix}semantic-entries:gone`, `${keyPrefix}semantic-seq:gone`);
      await otherClient.del(`${keyPrefix}semantic-entries:refilled`, `${keyPrefix}semantic-seq:refilled`);
      expect(await store.entries('gone')).toEqual([]);
      // Three adds in the new generation bring the counter past the mirror's 2: it must not take them for one.
      for (const key of ['x', 'y', 'z']) await writer.add('refilled', entry(key), limits);
      await reader.fetched();
      expect(answerKeys(await store.entries('refilled'))).toEqual(['z', 'y', 'x']);
      expect(await reader.fetched()).toEqual([3]);
      // Only the list evicted, its counter kept: an empty namespace, then the next add alone.
      await otherClient.del(`${keyPrefix}semantic-entries:refilled`);
      expect(await store.entries('refilled')).toEqual([]);
      await writer.add('refilled', entry('after'), limits);
      expect(answerKeys(await store.entries('refilled'))).toEqual(['after']);
    } finally {
      reader.client.disconnect();
    }
  });

  it('two store instances adding and reading at once end with the same entries as a fresh full read', async () => {
    const keyPrefix = `${prefix}racing:`;
    const first = new RedisSemanticCacheStore(client, keyPrefix);
    const second = new RedisSemanticCacheStore(otherClient, keyPrefix);
    const bounded = { maxEntries: 10, ttlMs: 60_000 };
    await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const [writer, reader] = index % 2 === 0 ? [first, second] : [second, first];
        await writer.add('race', entry(`k${index}`), bounded);
        await reader.entries('race');
        await writer.entries('race');
      }),
    );
    const fresh = answerKeys(await new RedisSemanticCacheStore(client, keyPrefix, { mirrorBytes: 0 }).entries('race'));
    expect(fresh).toHaveLength(10);
    expect(answerKeys(await first.entries('race'))).toEqual(fresh);
    expect(answerKeys(await second.entries('race'))).toEqual(fresh);
  });

  it('a Redis error is a rejected lookup (a miss), never the mirror served on its own', async () => {
    const keyPrefix = `${prefix}failing:`;
    const failing = new Redis(redisTestUrl, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    failing.on('error', () => undefined);
    const store = new RedisSemanticCacheStore(failing, keyPrefix);
    await new RedisSemanticCacheStore(otherClient, keyPrefix).add('n', entry('held'), limits);
    expect(answerKeys(await store.entries('n'))).toEqual(['held']);
    failing.disconnect();
    await expect(store.entries('n')).rejects.toThrow();
  });

  it('past its byte budget the mirror keeps the most recently used namespace only; 0 turns it off', async () => {
    const keyPrefix = `${prefix}budget:`;
    const writer = new RedisSemanticCacheStore(otherClient, keyPrefix);
    for (const namespace of ['a', 'b']) for (const key of ['1', '2', '3']) await writer.add(namespace, entry(key), limits);
    const reader = countingClient();
    try {
      // Room for one namespace of three small entries, not two.
      const store = new RedisSemanticCacheStore(reader.client, keyPrefix, { mirrorBytes: 700 });
      await store.entries('a');
      await store.entries('a');
      await store.entries('b');
      await store.entries('b');
      await store.entries('a');
      expect(await reader.fetched()).toEqual([3, 0, 3, 0, 3]);
      const unmirrored = new RedisSemanticCacheStore(reader.client, keyPrefix, { mirrorBytes: 0 });
      await unmirrored.entries('a');
      await unmirrored.entries('a');
      expect(await reader.fetched()).toEqual([3, 3]);
    } finally {
      reader.client.disconnect();
    }
  });
});
