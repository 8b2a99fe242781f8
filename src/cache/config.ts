import { z } from 'zod';

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
  })
  .strict();

export type CacheConfig = z.infer<typeof cacheConfigSchema>;
