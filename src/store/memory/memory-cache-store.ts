import type { CachedResponse, CacheStore } from '../cache-store.js';

interface Entry {
  value: CachedResponse;
  bytes: number;
  expiresAt: number;
}

/** One process's cache: TTL per entry and a bound on total size, least recently used evicted first. */
export class MemoryCacheStore implements CacheStore {
  readonly specificationVersion = 'v1' as const;
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<CachedResponse | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(key, entry);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  async set(key: string, value: CachedResponse, ttlMs: number): Promise<void> {
    const bytes = JSON.stringify(value).length;
    if (bytes > this.maxBytes) return;
    const existing = this.entries.get(key);
    if (existing) this.remove(key, existing);
    this.entries.set(key, { value, bytes, expiresAt: this.now() + ttlMs });
    this.bytes += bytes;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldestKey, oldest);
    }
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
