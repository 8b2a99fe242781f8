import { z } from 'zod';

const switchSchema = z.object({
  enabled: z.boolean(),
  updatedAt: z.string(),
});

const auditEntrySchema = z.object({
  at: z.string(),
  model: z.string(),
  enabled: z.boolean(),
  /** `admin-api`, `cli` or another caller's name; never a key. */
  by: z.string(),
  revision: z.number().int().nonnegative(),
});

/** How many changes the policy document remembers. */
export const auditLimit = 200;

export const policyDocumentSchema = z.object({
  version: z.literal(1),
  /** Grows by one on every saved change; clients send it back in `If-Match` to detect stale views. */
  revision: z.number().int().nonnegative(),
  updatedAt: z.string().optional(),
  /** Keyed `provider/model`. Entries are never pruned, so a model removed and added again keeps its switch. */
  models: z.record(z.string(), switchSchema),
  /** The latest changes, newest last: who switched what, when (bounded, see `auditLimit`). */
  audit: z.array(auditEntrySchema).optional(),
});

export type PolicyDocument = z.infer<typeof policyDocumentSchema>;
export type ModelSwitchEntry = z.infer<typeof switchSchema>;
export type PolicyAuditEntry = z.infer<typeof auditEntrySchema>;

export function emptyPolicyDocument(): PolicyDocument {
  return { version: 1, revision: 0, models: {} };
}
