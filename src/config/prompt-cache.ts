import { z } from 'zod';

export const promptCacheTtls = ['auto', '5m', '1h'] as const;

/**
 * `prompt_cache:` the provider prompt-cache optimizer, for requests whose client set no cache hints. On by
 * default: it only adds hints the providers bill in the client's favour, and never touches a client's own.
 */
export const promptCacheConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /**
     * Anthropic cache lifetime. `auto`: the 1-hour cache (writes cost 2× input instead of 1.25×) once a
     * session's turns come `long_ttl_after_gap_ms` or more apart, the 5-minute cache otherwise.
     */
    ttl: z.enum(promptCacheTtls).default('auto'),
    long_ttl_after_gap_ms: z.number().int().positive().default(4 * 60_000),
    /** Anthropic allows 4 breakpoints per request; a lower number leaves room for a client's own elsewhere. */
    max_breakpoints: z.number().int().min(1).max(4).default(4),
    /** Keep a session on the API key that wrote its cache while the cache is warm (caches are per key). */
    key_affinity: z.boolean().default(true),
    /**
     * Accepted for older configs: the TTL policy and key affinity now live in the session record, bounded by
     * `sessions.max_sessions` and shared in a cluster.
     */
    max_sessions: z.number().int().positive().default(50_000),
  })
  .strict();

export type PromptCacheConfig = z.infer<typeof promptCacheConfigSchema>;
export type PromptCacheTtl = Exclude<(typeof promptCacheTtls)[number], 'auto'>;
