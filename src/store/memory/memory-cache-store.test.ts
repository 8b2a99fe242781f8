import { describe, expect, it } from 'vitest';
import { describeCacheStoreContract } from '../cache-store.contract.js';
import { MemoryCacheStore } from './memory-cache-store.js';

describeCacheStoreContract('memory', async () => new MemoryCacheStore(1024 * 1024));

describe('MemoryCacheStore size bound', () => {
  it('evicts the least recently used entries beyond max bytes', async () => {
    const store = new MemoryCacheStore(600);
    const entry = (text: string) => ({ format: 'openai-chat' as const, kind: 'json' as const, body: text, provider: 'p', model: 'm', storedAt: 0 });
    await store.set('a', entry('x'.repeat(150)), 60_000);
    await store.set('b', entry('y'.repeat(150)), 60_000);
    await store.get('a');
    await store.set('c', entry('z'.repeat(150)), 60_000);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBeDefined();
    expect(await store.get('c')).toBeDefined();
  });
});
