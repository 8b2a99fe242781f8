import { loadToolsetModel } from '../classify/toolsets/model-file.js';
import type { ToolsetClassification } from '../classify/toolsets/toolset-classifier.js';
import { classifyToolsets } from '../classify/toolsets/toolset-classifier.js';
import { thresholdFor } from './config.js';
import type { SurfaceDecision, SurfaceInput, SurfaceReason } from './decision.js';
import { fullDecision } from './decision.js';
import { calledToolNames, firstUserText } from './first-turn.js';
import type { ToolRoutingContext } from './routing-context.js';
import { toolRoutingContext } from './routing-context.js';
import { buildSurface, toolsetOfTool } from './surface.js';

/**
 * First turn → surface. Confident → the predicted toolsets + floor + pinned + unowned tools + request_toolset;
 * otherwise (abstain, long message, unreadable tools, any error) the client's own tools array untouched.
 * Never throws: a routing failure must not fail a request that would have succeeded without the router.
 */
export function decideFirstTurnSurface(input: SurfaceInput): SurfaceDecision {
  return guarded(input, () => decide(input, false));
}

/**
 * A request with history whose session the gateway does not know (restart, expiry, compaction): the first user
 * message's classification joined with the toolsets of every tool already called, or the full surface when
 * the classifier abstains.
 */
export function decideResumedSurface(input: SurfaceInput): SurfaceDecision {
  return guarded(input, () => decide(input, true));
}

function guarded(input: SurfaceInput, run: () => SurfaceDecision): SurfaceDecision {
  try {
    return run();
  } catch (error) {
    return fullDecision(input, 'internal_error', { error: error instanceof Error ? error.message : String(error) });
  }
}

function decide(input: SurfaceInput, resumed: boolean): SurfaceDecision {
  const { config } = input;
  if (config.mode === 'off') return fullDecision(input, 'routing_off');
  if (input.tools.length === 0) return fullDecision(input, 'no_tools');
  const context = toolRoutingContext(input.tools, input.format, config);
  if (typeof context === 'string') return fullDecision(input, context);
  const availableToolsets = context.registry.toolsets.map((toolset) => toolset.name);
  if (availableToolsets.length === 0) return fullDecision(input, 'no_known_toolsets');
  const user = firstUserText(input.messages);
  if (!user || user.text.trim().length === 0 && !user.hasImage) return fullDecision(input, 'no_user_message', { availableToolsets });
  if (user.text.length > config.max_first_message_chars) return fullDecision(input, 'message_too_long', { availableToolsets });

  const classification = classify(input, context, user.text, user.hasImage);
  const common = { predictedToolsets: classification.toolsets, confidence: classification.confidence, scores: classification.scores, availableToolsets, rules: classification.rules };
  if (classification.verdict === 'abstain') return fullDecision(input, 'abstain', common);

  const toolsets = [...classification.toolsets];
  if (resumed) {
    for (const name of calledToolNames(input.messages)) {
      const owner = toolsetOfTool(context, name);
      if (owner !== undefined) toolsets.push(owner);
    }
  }
  const surface = buildSurface(context, config, toolsets);
  if (surface.keptIndices.length >= context.views.length) return fullDecision(input, 'nothing_pruned', common);
  return { outcome: 'narrowed', reason: resumed ? 'resumed' : reasonOf(classification), ...common, surface, tools: surface.tools };
}

function classify(input: SurfaceInput, context: ToolRoutingContext, text: string, hasImage: boolean): ToolsetClassification {
  const { config } = input;
  return classifyToolsets(input.model ?? loadToolsetModel(), {
    text,
    hasImage,
    available: context.described,
    profile: context.profile,
    thresholdFor: (toolset) => thresholdFor(config, toolset),
    descriptionThreshold: config.thresholds.description_match,
    abstainWhenTask: config.thresholds.abstain_when_task,
  });
}

function reasonOf(classification: ToolsetClassification): SurfaceReason {
  if (classification.verdict === 'capability_inquiry') return 'capability_inquiry';
  if (classification.verdict === 'no_tool') return 'no_tool_needed';
  return 'classified';
}
