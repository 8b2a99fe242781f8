import { z } from 'zod';

/**
 * The `auth:` section. Empty is valid: keys are required only once an application key exists or the gateway
 * binds beyond loopback.
 */
export const authConfigSchema = z
  .object({
    /** `auto`: on loopback with no application key, chat needs no key; `always`: every model request needs one. */
    require_keys: z.enum(['auto', 'always']).default('auto'),
    /** Where keys live (hashed); default `<data dir>/keys.json`. */
    key_file: z.string().min(1).optional(),
    /** Extra Host names (with port when not 80/443) the dashboard accepts, e.g. behind a reverse proxy. */
    allowed_hosts: z.array(z.string().min(1)).default([]),
    /** How long a dashboard login lasts. */
    session_ttl_ms: z.number().int().positive().default(12 * 60 * 60 * 1000),
    /** Mark the session cookie `Secure` (set it when a TLS proxy fronts the gateway). */
    secure_cookies: z.boolean().default(false),
  })
  .strict();

export type AuthConfig = z.output<typeof authConfigSchema>;
