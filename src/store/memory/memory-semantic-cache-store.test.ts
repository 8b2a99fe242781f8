import { describe, expect, it } from 'vitest';
import { describeSemanticCacheStoreContract } from '../semantic-cache-store.contract.js';
import { MemorySemanticCacheStore } from './memory-semantic-cache-store.js';

// One process has one store: the second handle is the same store.
describeSemanticCacheStoreContract('memory', async () => new MemorySemanticCacheStore(100), (store) => store);

describe('MemorySemanticCacheStore namespace bound', () => {
  it('drops the least recently used namespace past maxNamespaces', async () => {
    const store = new MemorySemanticCacheStore(2);
    const limits = { maxEntries: 5, ttlMs: 60_000 };
    const entry = { vector: [1], answerKey: 'k', storedAt: 1 };
    await store.add('a', entry, limits);
    await store.add('b', entry, limits);
    await store.entries('a');
    await store.add('c', entry, limits);
    expect(await store.entries('a')).toHaveLength(1);
    expect(await store.entries('b')).toEqual([]);
    expect(await store.entries('c')).toHaveLength(1);
  });
});
