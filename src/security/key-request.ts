import { z } from 'zod';
import { keyLimitsSchema } from '../store/keys/key-record.js';
import { defaultScopes, scopes } from '../store/keys/scopes.js';

/** What creating a key takes, from the admin API or the CLI. */
export const newKeyRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: z.array(z.enum(scopes)).min(1).default([...defaultScopes]),
    limits: keyLimitsSchema.default({}),
  })
  .strict();
