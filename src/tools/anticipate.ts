import type { MultilabelModel } from '../classify/linear/multilabel-model.js';
import { loadToolsetModel } from '../classify/toolsets/model-file.js';
import { classifyToolsets } from '../classify/toolsets/toolset-classifier.js';
import type { MessageView } from '../core/turn.js';
import type { ToolRoutingConfig } from './config.js';
import { thresholdFor } from './config.js';
import { newUserTurn } from './first-turn.js';
import type { ToolRoutingContext } from './routing-context.js';

export interface Anticipation {
  /** Toolsets to add before the call (empty: keep the surface, byte for byte). */
  added: string[];
  /** The missing toolset that triggered the growth, with its score. */
  trigger?: { toolset: string; score: number };
  /** Per-toolset scores of the new user turn, for the ledger. */
  scores: Record<string, number>;
}

const none: Anticipation = { added: [], scores: {} };

/**
 * A later user turn of a narrowed session → the toolsets to add before the call. Every growth rewrites the
 * provider's prompt cache from the tools on, the same break a `request_toolset` re-issue causes, but a needless
 * one buys nothing; so a growth needs one missing toolset the classifier is confident about (`trigger`), and
 * then brings every missing toolset that passes the first-turn threshold along, so that the likely companions
 * cost one break instead of one each later. `request_toolset` stays the safety net for what this misses.
 */
export function anticipateToolsets(
  context: ToolRoutingContext,
  config: ToolRoutingConfig,
  messages: readonly MessageView[],
  loaded: readonly string[],
  model?: MultilabelModel,
): Anticipation {
  const settings = config.anticipation;
  if (!settings.enabled) return none;
  const turn = newUserTurn(messages);
  if (!turn || turn.text.trim() === '' || turn.text.length > config.max_first_message_chars) return none;
  const missing = context.described.filter((toolset) => !loaded.includes(toolset.name));
  if (missing.length === 0) return none;
  const weights = model ?? loadToolsetModel();
  const classification = classifyToolsets(weights, {
    text: turn.text,
    hasImage: turn.hasImage,
    available: context.described,
    profile: context.profile,
    thresholdFor: (toolset) => thresholdFor(config, toolset),
    descriptionThreshold: config.thresholds.description_match,
    abstainWhenTask: config.thresholds.abstain_when_task,
  });
  // Precision over recall: the recall-first rules are for first turns, where a miss costs more than an extra.
  // Here a rule counts only when the model backs it a little (`rule_support`); otherwise the model must be sure.
  const evidence = classification.evidence;
  const scores = classification.scores;
  if (classification.verdict === 'no_tool' || classification.verdict === 'capability_inquiry') return { ...none, scores: evidence };
  // Model probabilities and description-match scores live on different scales: each has its own bars.
  const known = new Set(weights.labels);
  const ruled = (toolset: string) => (scores[toolset] ?? 0) >= 0.99 && (evidence[toolset] ?? 0) >= settings.rule_support;
  const triggers = (toolset: string) => (evidence[toolset] ?? 0) >= (known.has(toolset) ? settings.trigger : settings.description_trigger) || ruled(toolset);
  const joins = (toolset: string) => (evidence[toolset] ?? 0) >= (known.has(toolset) ? settings.companion : settings.description_companion) || ruled(toolset);
  // A growth is a cache break on a guess when the session's own toolsets explain the turn as well as the missing
  // one does (or very well): then request_toolset covers the case where they do not.
  const bestLoaded = Math.max(0, ...loaded.map((toolset) => evidence[toolset] ?? 0));
  let trigger: Anticipation['trigger'];
  for (const toolset of missing) {
    const score = evidence[toolset.name] ?? 0;
    if (!triggers(toolset.name) || bestLoaded >= Math.min(settings.served, score)) continue;
    if (trigger === undefined || score > trigger.score) trigger = { toolset: toolset.name, score };
  }
  if (!trigger) return { ...none, scores: evidence };
  const chosen = trigger.toolset;
  const added = missing.filter((toolset) => toolset.name === chosen || joins(toolset.name)).map((toolset) => toolset.name);
  return { added, trigger, scores: evidence };
}
