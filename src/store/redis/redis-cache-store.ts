import type { Redis } from 'ioredis';
import type { CachedResponse, CacheStore } from '../cache-store.js';

/**
 * The response cache shared by several instances: one JSON value per key under `<prefix>cache:<key>`, expiring
 * with PX. Redis's own maxmemory policy bounds its size; entries larger than `maxEntryBytes` are not stored.
 */
export class RedisCacheStore implements CacheStore {
  readonly specificationVersion = 'v1' as const;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    private readonly maxEntryBytes: number,
  ) {}

  async get(key: string): Promise<CachedResponse | undefined> {
    const text = await this.client.get(`${this.keyPrefix}cache:${key}`);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as CachedResponse;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: CachedResponse, ttlMs: number): Promise<void> {
    const text = JSON.stringify(value);
    if (text.length > this.maxEntryBytes) return;
    await this.client.set(`${this.keyPrefix}cache:${key}`, text, 'PX', Math.max(1, Math.trunc(ttlMs)));
  }

  async close(): Promise<void> {
    // The connection belongs to the cluster stores, which close it.
  }
}
