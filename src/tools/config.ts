import type { ToolRoutingConfig } from '../config/tool-routing.js';

// The `tool_routing:` section itself lives in config/ with the other sections (the schema composes them all);
// tools/ reads it through here, beside the one rule over it that is tool routing's own (thresholdFor).
export {
  defaultCriticalToolsets,
  defaultToolRoutingConfig,
  type ToolRoutingConfig,
  type ToolRoutingMode,
  type ToolsetOverride,
  toolRoutingConfigSchema,
  toolRoutingModes,
} from '../config/tool-routing.js';

/** What the model says of the message as a whole, which decides whether cheap toolsets come along on weak evidence. */
export interface MessageEvidence {
  /** P(the message needs some tool). */
  needsTool: number;
  /** The highest probability the model gives any toolset. */
  strongest: number;
}

/**
 * The probability a toolset needs to be loaded: its `per_toolset` bar when configured, else the critical or default
 * bar, lowered to `schemaTokens / miss_cost_tokens` when that is smaller (expected cost: keep it when p × miss ≥
 * tokens) while the model is unsure: the message likely needs a tool (≥ 0.5) but no toolset is clearly it (< 0.8).
 * Chit-chat ("hi there", "what can you do?") and clear requests ("list the files here": terminal 0.9) keep the
 * plain bars. Leave-one-writer-out (611/630/588 cases), the condition turned miss cost 25,000 from case recall
 * 0.969/0.946/0.956 at median reduction 0.848/0.858/0.859 into 0.967/0.940/0.951 at 0.857/0.863/0.863
 * (miss cost then 25,000; 35,000 since the five-writer model, src/tools/ARCHITECTURE.md).
 */
export function thresholdFor(config: ToolRoutingConfig, toolset: string, schemaTokens?: number, evidence?: MessageEvidence): number {
  const specific = config.thresholds.per_toolset[toolset];
  if (specific !== undefined) return specific;
  const bar = config.critical_toolsets.includes(toolset) ? config.thresholds.critical : config.thresholds.default;
  const missCost = config.thresholds.miss_cost_tokens;
  const unsure = evidence === undefined || (evidence.needsTool >= 0.5 && evidence.strongest < 0.8);
  return schemaTokens !== undefined && missCost > 0 && unsure ? Math.min(bar, schemaTokens / missCost) : bar;
}
