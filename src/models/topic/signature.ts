import type { Topic } from '../../classify/topic/taxonomy.js';

export interface SignatureInput {
  /** The model that actually answered (after any fallback). */
  finalModel: string;
  /** The routed topic; `none` renders as `general`. Undefined with `skipped`. */
  topic?: Topic | string;
  /** The model the route asked for; shown only when a fallback answered instead. */
  routedModel?: string;
  /** The user skipped routing for this turn with a skip prefix. */
  skipped?: boolean;
}

/** `google/gemma-4-31b:free` → `gemma-4-31b`: the signature shows the model, not the provider or plan. */
export function displayModelName(model: string): string {
  const afterSlash = model.slice(model.lastIndexOf('/') + 1);
  const colon = afterSlash.indexOf(':');
  return colon > 0 ? afterSlash.slice(0, colon) : afterSlash;
}

/**
 * The routing signature appended to an answer: `- gemma-4-31b [software_it]`, `- gpt-5.5 [general]`,
 * `- gpt-5.5 [skip]`, or, when a fallback answered, `- gemini-3-flash [software_it | routed: nemotron-3-super]`.
 */
export function formatSignature(input: SignatureInput): string {
  const finalName = displayModelName(input.finalModel);
  if (input.skipped) return `- ${finalName} [skip]`;
  const label = !input.topic || input.topic === 'none' ? 'general' : input.topic;
  const routed = input.routedModel ? displayModelName(input.routedModel) : undefined;
  if (routed && routed !== finalName) return `- ${finalName} [${label} | routed: ${routed}]`;
  return `- ${finalName} [${label}]`;
}
