import type { ResponseStore, StoredResponse } from '../response-store.js';
import { BoundedExpiringMap } from './bounded-expiring-map.js';

/** One process's stored responses: TTL per entry and a bound on total size, least recently used evicted first. */
export class MemoryResponseStore implements ResponseStore {
  readonly specificationVersion = 'v1' as const;
  private readonly entries: BoundedExpiringMap<StoredResponse>;

  constructor(maxBytes: number, now: () => number = Date.now) {
    this.entries = new BoundedExpiringMap(maxBytes, now);
  }

  async get(id: string): Promise<StoredResponse | undefined> {
    return this.entries.get(id);
  }

  async set(id: string, value: StoredResponse, ttlMs: number): Promise<void> {
    this.entries.set(id, value, ttlMs);
  }

  async delete(id: string): Promise<boolean> {
    return this.entries.delete(id);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
