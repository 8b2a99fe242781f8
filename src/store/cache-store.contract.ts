import { describe, expect, it } from 'vitest';
import type { CachedResponse, CacheStore } from './cache-store.js';

const answer = (text: string): CachedResponse => ({
  format: 'openai-chat',
  kind: 'json',
  body: { choices: [{ message: { content: text } }] },
  provider: 'p',
  model: 'm',
  usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  storedAt: 1,
});

/** The contract every response-cache store passes (memory, Redis). */
export function describeCacheStoreContract(name: string, factory: () => Promise<CacheStore>): void {
  describe(`CacheStore contract: ${name}`, () => {
    it('returns what was stored, and nothing for an unknown key', async () => {
      const store = await factory();
      await store.set('k1', answer('hello'), 60_000);
      expect(await store.get('k1')).toEqual(answer('hello'));
      expect(await store.get('missing')).toBeUndefined();
      await store.close();
    });

    it('forgets an entry after its time to live', async () => {
      const store = await factory();
      await store.set('short', answer('soon gone'), 30);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await store.get('short')).toBeUndefined();
      await store.close();
    });

    it('replaces an entry stored again under the same key', async () => {
      const store = await factory();
      await store.set('k2', answer('one'), 60_000);
      await store.set('k2', answer('two'), 60_000);
      expect(await store.get('k2')).toEqual(answer('two'));
      await store.close();
    });
  });
}
