import { z } from 'zod';
import { toolRoutingModes } from '../../config/tool-routing-modes.js';

const switchSchema = z.object({
  enabled: z.boolean(),
  updatedAt: z.string(),
});

const toolRoutingSchema = z.object({
  /** `on`, `shadow` or `off`; wins over `tool_routing.mode` in the config, which is only the starting value. */
  mode: z.enum(toolRoutingModes),
  updatedAt: z.string(),
});

const switchAuditEntrySchema = z.object({
  at: z.string(),
  model: z.string(),
  enabled: z.boolean(),
  /** `admin-api`, `cli` or another caller's name; never a key. */
  by: z.string(),
  revision: z.number().int().nonnegative(),
});

const toolRoutingAuditEntrySchema = z.object({
  at: z.string(),
  toolRoutingMode: z.enum(toolRoutingModes),
  by: z.string(),
  revision: z.number().int().nonnegative(),
});

const auditEntrySchema = z.union([switchAuditEntrySchema, toolRoutingAuditEntrySchema]);

/** How many changes the policy document remembers. */
export const auditLimit = 200;

export const policyDocumentSchema = z.object({
  version: z.literal(1),
  /** Grows by one on every saved change; clients send it back in `If-Match` to detect stale views. */
  revision: z.number().int().nonnegative(),
  updatedAt: z.string().optional(),
  /** Keyed `provider/model`. Entries are never pruned, so a model removed and added again keeps its switch. */
  models: z.record(z.string(), switchSchema),
  /**
   * The tool routing mode switched at run time (`router on|off|shadow`), shared by every instance reading this
   * policy. Absent until first switched (documents written before it existed stay valid).
   */
  toolRouting: toolRoutingSchema.optional(),
  /** The latest changes, newest last: who switched what, when (bounded, see `auditLimit`). */
  audit: z.array(auditEntrySchema).optional(),
});

export type PolicyDocument = z.infer<typeof policyDocumentSchema>;
export type ModelSwitchEntry = z.infer<typeof switchSchema>;
export type ToolRoutingEntry = z.infer<typeof toolRoutingSchema>;
export type PolicyAuditEntry = z.infer<typeof auditEntrySchema>;

export function emptyPolicyDocument(): PolicyDocument {
  return { version: 1, revision: 0, models: {} };
}
