import type { Turn } from '../../core/turn.js';
import type { SemanticCacheStore } from '../../store/semantic-cache-store.js';
import type { CacheConfig } from '../../config/cache.js';
import { cacheIneligibility } from '../response-cache.js';
import { unitSimilarity, unitVector } from './cosine-similarity.js';
import { semanticRequest } from './semantic-request.js';

/** Embeds one request's text (an upstream call); throws on failure or timeout. */
export type SemanticEmbedder = (request: { turn: Turn; sessionId: string | undefined; text: string }, signal: AbortSignal) => Promise<number[]>;

/** A cached request similar enough to this one; its answer is the exact cache's entry under `answerKey`. */
export interface SemanticMatch {
  answerKey: string;
  similarity: number;
}

/** The result of one lookup: the matches, best first, and a way to remember this request once it is answered. */
export interface SemanticProbe {
  matches: SemanticMatch[];
  /** Links this request's vector to the exact cache key its answer was stored under. */
  remember(answerKey: string): void;
}

/** How many matches above the threshold are tried: the best may point to an expired or switched-off answer. */
const maxMatches = 3;

/**
 * The semantic response cache: after an exact miss, the last user message is embedded and compared with earlier
 * requests of the same namespace (see semantic-request.ts); a match at or above `threshold` is served from the
 * exact cache. It fails open everywhere: an embeddings error, a timeout or a failing store is a miss, never a
 * failed request.
 */
export class SemanticCache {
  constructor(
    private readonly store: SemanticCacheStore,
    readonly config: CacheConfig,
    private readonly embed: SemanticEmbedder,
  ) {}

  /**
   * Undefined (and no upstream call) when the semantic cache is off or the request is not eligible: the exact
   * cache's rules (no tools unless configured, no tool loops, temperature 0 unless configured) plus the ones in
   * `semanticRequest`.
   */
  async probe(turn: Turn, sessionId: string | undefined, signal: AbortSignal): Promise<SemanticProbe | undefined> {
    const semantic = this.config.semantic;
    if (!semantic.enabled || cacheIneligibility(turn, this.config) !== undefined) return undefined;
    const request = semanticRequest(turn, semantic);
    if (!request) return undefined;
    let vector: number[];
    try {
      vector = unitVector(await this.embed({ turn, sessionId, text: request.text }, signal));
    } catch {
      return undefined;
    }
    const limits = { maxEntries: semantic.max_entries, ttlMs: this.config.ttl_ms };
    const entries = await this.store.entries(request.namespace).catch(() => []);
    const matches = entries
      .map((entry) => ({ answerKey: entry.answerKey, similarity: unitSimilarity(vector, entry.vector) }))
      .filter((match) => match.similarity >= semantic.threshold)
      .sort((left, right) => right.similarity - left.similarity)
      .slice(0, maxMatches);
    return {
      matches,
      remember: (answerKey) => {
        void this.store.add(request.namespace, { vector, answerKey, storedAt: Date.now() }, limits).catch(() => undefined);
      },
    };
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
