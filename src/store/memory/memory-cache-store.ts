import type { CachedResponse, CacheStore } from '../cache-store.js';
import { BoundedExpiringMap } from './bounded-expiring-map.js';

/** One process's cache: TTL per entry and a bound on total size, least recently used evicted first. */
export class MemoryCacheStore implements CacheStore {
  readonly specificationVersion = 'v1' as const;
  private readonly entries: BoundedExpiringMap<CachedResponse>;

  constructor(maxBytes: number, now: () => number = Date.now) {
    this.entries = new BoundedExpiringMap(maxBytes, now);
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, value: CachedResponse, ttlMs: number): Promise<void> {
    this.entries.set(key, value, ttlMs);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
