import { z } from 'zod';
import { scopes } from './scopes.js';

export const keyLimitsSchema = z
  .object({
    requests_per_minute: z.number().int().positive().optional(),
    tokens_per_day: z.number().int().positive().optional(),
    cost_per_day_usd: z.number().positive().optional(),
    /** Provider ids this key may reach; all when absent. */
    providers: z.array(z.string().min(1)).optional(),
    /** Model ids or `provider/model` names this key may reach; all when absent. */
    models: z.array(z.string().min(1)).optional(),
  })
  .strict();
export type KeyLimits = z.output<typeof keyLimitsSchema>;

/** An application key as stored: never the key itself, only its hash and last four characters. */
export const applicationKeySchema = z
  .object({
    id: z.string().regex(/^[a-f0-9]{10}$/),
    name: z.string(),
    hash: z.string(),
    hint: z.string(),
    scopes: z.array(z.enum(scopes)),
    limits: keyLimitsSchema,
    created_at: z.string(),
    revoked_at: z.string().optional(),
  })
  .strict();
export type ApplicationKey = z.output<typeof applicationKeySchema>;

/** The view of a key that may leave the gateway (admin API, CLI). */
export function publicKeyView(key: ApplicationKey) {
  return {
    id: key.id,
    name: key.name,
    hint: key.hint,
    scopes: key.scopes,
    limits: key.limits,
    created_at: key.created_at,
    revoked_at: key.revoked_at ?? null,
  };
}
