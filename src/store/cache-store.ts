import type { ApiFormat } from '../core/api-format.js';
import type { Usage } from '../core/usage.js';

/** One cached answer, stored as the client received it. */
export interface CachedResponse {
  format: ApiFormat;
  /** `json`: the response body; `stream`: the SSE frames exactly as written to the client. */
  kind: 'json' | 'stream';
  body?: unknown;
  frames?: string[];
  provider: string;
  model: string;
  /** What the original answer used, so a hit can say what it saved. */
  usage?: Usage;
  storedAt: number;
}

/**
 * The response cache's storage (version 1): memory for one instance, Redis for several. Keys are already
 * namespaced per client key by the caller.
 */
export interface CacheStore {
  readonly specificationVersion: 'v1';
  get(key: string): Promise<CachedResponse | undefined>;
  set(key: string, value: CachedResponse, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
