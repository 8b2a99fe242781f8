import type { Redis } from 'ioredis';
import type { SemanticCacheEntry, SemanticCacheLimits, SemanticCacheStore } from '../semantic-cache-store.js';

/** What one list element holds; the vector as little-endian float32 in base64 (a third of its JSON size). */
interface StoredEntry {
  answerKey: string;
  storedAt: number;
  expiresAt: number;
  vector: string;
}

function encodeVector(vector: ArrayLike<number>): string {
  return Buffer.from(Float32Array.from(vector).buffer).toString('base64');
}

/** A copy into its own buffer: a pooled Buffer's offset need not be a multiple of 4. No per-element JS (256 × 1536 floats per lookup). */
function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length - (bytes.length % 4)));
}

/**
 * The vectors shared by several instances: one list per namespace under `<prefix>semantic:<namespace>`, newest
 * first, trimmed to `maxEntries` and expiring `ttlMs` after its last add (each element also carries its own
 * expiry). Plain lists scanned linearly: no Redis module is needed, and `maxEntries` bounds the scan.
 */
export class RedisSemanticCacheStore implements SemanticCacheStore {
  readonly specificationVersion = 'v1' as const;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  async entries(namespace: string): Promise<SemanticCacheEntry[]> {
    const items = await this.client.lrange(`${this.keyPrefix}semantic:${namespace}`, 0, -1);
    const now = this.now();
    const entries: SemanticCacheEntry[] = [];
    for (const item of items) {
      try {
        const stored = JSON.parse(item) as StoredEntry;
        if (stored.expiresAt > now) entries.push({ vector: decodeVector(stored.vector), answerKey: stored.answerKey, storedAt: stored.storedAt });
      } catch {
        // A malformed element is skipped, never a failed lookup.
      }
    }
    return entries;
  }

  async add(namespace: string, entry: SemanticCacheEntry, limits: SemanticCacheLimits): Promise<void> {
    const key = `${this.keyPrefix}semantic:${namespace}`;
    const ttlMs = Math.max(1, Math.trunc(limits.ttlMs));
    const stored: StoredEntry = { answerKey: entry.answerKey, storedAt: entry.storedAt, expiresAt: this.now() + ttlMs, vector: encodeVector(entry.vector) };
    await this.client
      .multi()
      .lpush(key, JSON.stringify(stored))
      .ltrim(key, 0, limits.maxEntries - 1)
      .pexpire(key, ttlMs)
      .exec();
  }

  async close(): Promise<void> {
    // The connection belongs to the cluster stores, which close it.
  }
}
