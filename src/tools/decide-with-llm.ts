import type { LlmClassifierSettings } from '../classify/toolsets/llm-classifier.js';
import { classifyWithLlm } from '../classify/toolsets/llm-classifier.js';
import type { ToolRoutingConfig } from './config.js';
import { decideFirstTurnSurface } from './decide-surface.js';
import type { SurfaceDecision, SurfaceInput } from './decision.js';
import { firstUserText } from './first-turn.js';
import { toolRoutingContext } from './routing-context.js';
import { buildSurface } from './surface.js';

/** The classifier settings from config, or undefined when it is off or incomplete (then it is never called). */
export function llmClassifierSettings(config: ToolRoutingConfig, env: NodeJS.ProcessEnv): LlmClassifierSettings | undefined {
  const section = config.llm_classifier;
  if (!section.enabled || !section.base_url || !section.model) return undefined;
  const apiKey = section.api_key_env ? env[section.api_key_env] : undefined;
  return { baseUrl: section.base_url, model: section.model, timeoutMs: section.timeout_ms, disableThinking: section.disable_thinking, extraBody: section.extra_body, ...(apiKey ? { apiKey } : {}) };
}

/**
 * decideFirstTurnSurface, then, only when the local classifier abstained, the LLM classifier. Its answer
 * narrows the surface when confident enough; anything else keeps the local (full) decision. Never throws.
 */
export async function decideFirstTurnSurfaceWithLlm(input: SurfaceInput, settings: LlmClassifierSettings | undefined): Promise<SurfaceDecision> {
  const local = decideFirstTurnSurface(input);
  if (local.reason !== 'abstain' || settings === undefined) return local;
  try {
    const context = toolRoutingContext(input.tools, input.format, input.config);
    const user = firstUserText(input.messages);
    if (typeof context === 'string' || !user) return local;
    const answer = await classifyWithLlm(settings, user.text, context.registry.toolsets);
    if (!answer || answer.confidence < input.config.llm_classifier.min_confidence) return local;
    const surface = buildSurface(context, input.config, answer.toolsets);
    if (surface.keptIndices.length >= context.views.length) return local;
    return { ...local, outcome: 'narrowed', reason: 'llm_classified', predictedToolsets: answer.toolsets, confidence: answer.confidence, surface, tools: surface.tools };
  } catch {
    return local;
  }
}
