import type { ApiFormat } from '../core/api-format.js';
import type { MessageView } from '../core/turn.js';
import type { NeighbourIndex } from '../classify/toolsets/neighbour-index.js';
import type { MultilabelModel } from '../classify/linear/multilabel-model.js';
import type { ToolRoutingConfig } from './config.js';
import type { ToolSurface } from './surface.js';

export interface SurfaceInput {
  /** The body's `tools` array, in the client's format, untouched. */
  tools: readonly unknown[];
  format: ApiFormat;
  messages: readonly MessageView[];
  config: ToolRoutingConfig;
  /** The classifier weights; the shipped model when absent (tests inject their own). */
  model?: MultilabelModel;
  /**
   * The neighbour index the classifier votes with; the shipped one when absent, none when null (a fold measures
   * with an index that leaves its held-out writers out, as its model does).
   */
  neighbours?: NeighbourIndex | null;
}

export type SurfaceReason =
  | 'classified' // confident toolsets
  | 'no_tool_needed' // confident that the message needs no tool: floor + request_toolset (+ the surface budget's extras)
  | 'capability_inquiry' // "what can you do?": answered from the catalog
  | 'resumed' // history without a known session: first message's toolsets ∪ tools already called
  | 'llm_classified' // the local classifier abstained and the optional LLM classifier was confident
  | 'abstain' // the classifier was not confident
  | 'message_too_long'
  | 'no_user_message'
  | 'no_tools'
  | 'unreadable_tools' // a tool object of a shape we do not read
  | 'name_conflict' // the client already has a tool named request_toolset
  | 'no_known_toolsets' // nothing on the surface has an owner, so nothing can be pruned
  | 'nothing_pruned' // the narrowed surface would not be smaller
  | 'routing_off'
  | 'internal_error';

export interface SurfaceDecision {
  outcome: 'narrowed' | 'full';
  reason: SurfaceReason;
  /** Toolsets the classifier chose (before floor and history), in registry order. */
  predictedToolsets: string[];
  /** The weakest of the classifier's decisions, in [0,1]; 0 when it did not run. */
  confidence: number;
  /** Per-toolset scores, for the ledger and `report routing`. */
  scores: Record<string, number>;
  /** Every toolset of the client's full surface, in registry order. */
  availableToolsets: string[];
  /** The narrowed surface (outcome 'narrowed' only). */
  surface?: ToolSurface;
  /** What to send upstream: the surface's tools, or the client's own array untouched. */
  tools: readonly unknown[];
  rules: string[];
  /** Set for 'internal_error': the message, so the caller can log it (routing errors never fail a request). */
  error?: string;
}

export function fullDecision(input: Pick<SurfaceInput, 'tools'>, reason: SurfaceReason, extra: Partial<SurfaceDecision> = {}): SurfaceDecision {
  return { outcome: 'full', reason, predictedToolsets: [], confidence: 0, scores: {}, availableToolsets: [], tools: input.tools, rules: [], ...extra };
}
