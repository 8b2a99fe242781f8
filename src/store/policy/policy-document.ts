import { z } from 'zod';

const switchSchema = z.object({
  enabled: z.boolean(),
  updatedAt: z.string(),
});

export const policyDocumentSchema = z.object({
  version: z.literal(1),
  /** Grows by one on every saved change; clients send it back in `If-Match` to detect stale views. */
  revision: z.number().int().nonnegative(),
  updatedAt: z.string().optional(),
  /** Keyed `provider/model`. Entries are never pruned, so a model removed and added again keeps its switch. */
  models: z.record(z.string(), switchSchema),
});

export type PolicyDocument = z.infer<typeof policyDocumentSchema>;
export type ModelSwitchEntry = z.infer<typeof switchSchema>;

export function emptyPolicyDocument(): PolicyDocument {
  return { version: 1, revision: 0, models: {} };
}
