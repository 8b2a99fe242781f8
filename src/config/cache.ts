import { z } from 'zod';

/**
 * `cache.semantic`: answer a paraphrase of a cached request from the exact cache's entry, off by default. It costs
 * one embeddings call per eligible miss, and a near-duplicate is not always the same question.
 */
export const semanticCacheConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** An embeddings model this gateway serves (a provider model marked `embeddings: true`). */
    embedding_model: z.string().min(1).optional(),
    /** Cosine similarity at or above which a cached answer is served. */
    threshold: z.number().gt(0).max(1).default(0.95),
    /** Vectors kept per namespace (client key, model, parameters and earlier turns); the oldest go first. */
    max_entries: z.number().int().positive().default(256),
    /** Namespaces the memory store keeps (one instance); Redis forgets a namespace by TTL instead. */
    max_namespaces: z.number().int().positive().default(1024),
    /** Longer last user messages are not embedded: long prompts rarely recur as paraphrases and cost most to embed. */
    max_prompt_chars: z.number().int().positive().default(4000),
    /** The embeddings call's budget; past it the request proceeds as a miss. */
    timeout_ms: z.number().int().positive().default(1000),
  })
  .strict();

/** The `cache:` section: an exact response cache, off by default (cached answers change what users expect). */
export const cacheConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    ttl_ms: z.number().int().positive().default(10 * 60 * 1000),
    /** Bound on the memory store's total size (and on one entry in Redis). */
    max_bytes: z.number().int().positive().default(64 * 1024 * 1024),
    /** Cache requests that offer tools (never tool loops, whatever this says). */
    include_tools: z.boolean().default(false),
    /** Cache requests with temperature > 0 (their answers are meant to vary). */
    include_nonzero_temperature: z.boolean().default(false),
    semantic: semanticCacheConfigSchema.prefault({}),
  })
  .strict()
  .superRefine((cache, context) => {
    if (!cache.semantic.enabled) return;
    if (!cache.enabled) {
      context.addIssue({
        code: 'custom',
        path: ['semantic', 'enabled'],
        message: 'the semantic cache serves answers the exact cache stores; set cache.enabled: true as well (or turn semantic off)',
      });
    }
    if (cache.semantic.embedding_model === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['semantic', 'embedding_model'],
        message: 'required when the semantic cache is on; name an embeddings model this gateway serves (a provider model marked `embeddings: true`)',
      });
    }
  });

export type CacheConfig = z.infer<typeof cacheConfigSchema>;
export type SemanticCacheConfig = CacheConfig['semantic'];
