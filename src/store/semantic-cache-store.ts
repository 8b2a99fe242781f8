/** One remembered request for the semantic cache: its embedding and where the exact cache keeps its answer. */
export interface SemanticCacheEntry {
  /** A unit vector (length 1), so similarity is a dot product; a store may hand back a Float32Array. */
  vector: ArrayLike<number>;
  /** The exact cache key of the answer; the answer itself lives (and expires) in the exact cache. */
  answerKey: string;
  storedAt: number;
}

export interface SemanticCacheLimits {
  /** Entries kept per namespace, newest first; older ones are dropped. */
  maxEntries: number;
  /** An entry is not returned after this long. */
  ttlMs: number;
}

/**
 * The semantic cache's vectors (version 1): memory for one instance, Redis for several. A namespace is an opaque
 * string the caller builds (client key, model, parameters, earlier turns); lookups scan one namespace linearly,
 * which `maxEntries` keeps cheap, so no vector index is needed.
 */
export interface SemanticCacheStore {
  readonly specificationVersion: 'v1';
  /** The namespace's live entries, newest first; read-only: a store may hand the same objects to every lookup (the Redis store's mirror does). */
  entries(namespace: string): Promise<SemanticCacheEntry[]>;
  add(namespace: string, entry: SemanticCacheEntry, limits: SemanticCacheLimits): Promise<void>;
  close(): Promise<void>;
}
