import type { SemanticCacheEntry, SemanticCacheLimits, SemanticCacheStore } from '../semantic-cache-store.js';

interface StoredEntry {
  entry: SemanticCacheEntry;
  expiresAt: number;
}

/**
 * One process's vectors: at most `maxEntries` per namespace and `maxNamespaces` namespaces, the least recently
 * used namespace dropped first, so memory stays bounded however many client keys and conversations there are.
 */
export class MemorySemanticCacheStore implements SemanticCacheStore {
  readonly specificationVersion = 'v1' as const;
  private readonly namespaces = new Map<string, StoredEntry[]>();

  constructor(
    private readonly maxNamespaces: number,
    private readonly now: () => number = Date.now,
  ) {}

  async entries(namespace: string): Promise<SemanticCacheEntry[]> {
    const stored = this.namespaces.get(namespace);
    if (!stored) return [];
    const now = this.now();
    const live = stored.filter((item) => item.expiresAt > now);
    this.namespaces.delete(namespace);
    if (live.length > 0) this.namespaces.set(namespace, live);
    return live.map((item) => item.entry);
  }

  async add(namespace: string, entry: SemanticCacheEntry, limits: SemanticCacheLimits): Promise<void> {
    const stored = this.namespaces.get(namespace) ?? [];
    this.namespaces.delete(namespace);
    this.namespaces.set(namespace, [{ entry, expiresAt: this.now() + limits.ttlMs }, ...stored].slice(0, limits.maxEntries));
    for (const oldest of this.namespaces.keys()) {
      if (this.namespaces.size <= this.maxNamespaces) break;
      this.namespaces.delete(oldest);
    }
  }

  async close(): Promise<void> {
    this.namespaces.clear();
  }
}
