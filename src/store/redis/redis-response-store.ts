import type { Redis } from 'ioredis';
import type { ResponseStore, StoredResponse } from '../response-store.js';

/**
 * Stored Responses API responses shared by several instances, so `previous_response_id` works whichever
 * instance the next request reaches: one JSON value per id under `<prefix>response:<id>`, expiring with PX.
 * Redis's maxmemory policy bounds the total; a response larger than `maxEntryBytes` is not stored.
 */
export class RedisResponseStore implements ResponseStore {
  readonly specificationVersion = 'v1' as const;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    private readonly maxEntryBytes: number,
  ) {}

  async get(id: string): Promise<StoredResponse | undefined> {
    const text = await this.client.get(`${this.keyPrefix}response:${id}`);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as StoredResponse;
    } catch {
      return undefined;
    }
  }

  async set(id: string, value: StoredResponse, ttlMs: number): Promise<void> {
    const text = JSON.stringify(value);
    if (text.length > this.maxEntryBytes) return;
    await this.client.set(`${this.keyPrefix}response:${id}`, text, 'PX', Math.max(1, Math.trunc(ttlMs)));
  }

  async delete(id: string): Promise<boolean> {
    return (await this.client.del(`${this.keyPrefix}response:${id}`)) > 0;
  }

  async close(): Promise<void> {
    // The connection belongs to the cluster stores, which close it.
  }
}
