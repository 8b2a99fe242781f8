import type { ModelMetadata } from './model-metadata.js';

interface KnownFamily {
  pattern: RegExp;
  metadata: ModelMetadata;
}

const chat = (tier: number, extra: ModelMetadata = {}): ModelMetadata => ({ tier, supportsTools: true, embeddings: false, ...extra });
const vision = { supportsVision: true } as const;
const reasoning = { supportsReasoning: true } as const;
const embedding: ModelMetadata = { embeddings: true, supportsTools: false, supportsVision: false };

/**
 * Capabilities of well-known model families as their vendors document them (context windows and prices come from
 * @pydantic/genai-prices, which carries no capabilities). First match wins, so narrower names come first.
 * Matched against the name after any `vendor/` prefix (OpenRouter ids).
 */
const knownFamilies: readonly KnownFamily[] = [
  { pattern: /^(text-embedding|embed-|gemini-embedding|mistral-embed|nomic-embed|voyage-)/, metadata: embedding },
  { pattern: /^gpt-5.*nano/, metadata: chat(4, { ...vision, ...reasoning }) },
  { pattern: /^gpt-5.*mini/, metadata: chat(3, { ...vision, ...reasoning }) },
  { pattern: /^gpt-5/, metadata: chat(1, { ...vision, ...reasoning }) },
  { pattern: /^gpt-4\.1-nano/, metadata: chat(4, vision) },
  { pattern: /^gpt-4\.1-mini/, metadata: chat(3, vision) },
  { pattern: /^gpt-4\.1/, metadata: chat(2, vision) },
  { pattern: /^(gpt-4o-mini|chatgpt-4o-mini)/, metadata: chat(3, vision) },
  { pattern: /^(gpt-4o|chatgpt-4o)/, metadata: chat(2, vision) },
  { pattern: /^gpt-3\.5/, metadata: chat(4, { supportsVision: false }) },
  { pattern: /^o3-mini/, metadata: chat(2, { ...reasoning, supportsVision: false }) },
  { pattern: /^o4-mini/, metadata: chat(2, { ...vision, ...reasoning }) },
  { pattern: /^o[13](-|$)/, metadata: chat(1, { ...vision, ...reasoning }) },
  { pattern: /^claude-(opus-4|4-opus|3-opus)/, metadata: chat(1, { ...vision, ...reasoning }) },
  { pattern: /^claude-(sonnet-4|4-sonnet|3-7-sonnet)/, metadata: chat(1, { ...vision, ...reasoning }) },
  { pattern: /^claude-3-5-sonnet/, metadata: chat(2, vision) },
  { pattern: /^claude-(haiku-4|3-5-haiku)/, metadata: chat(3, vision) },
  { pattern: /^claude-3-haiku/, metadata: chat(4, vision) },
  { pattern: /^gemini-[\d.]+-flash-lite/, metadata: chat(4, vision) },
  { pattern: /^gemini-[\d.]+-flash/, metadata: chat(3, { ...vision, ...reasoning }) },
  { pattern: /^gemini-[\d.]+-pro/, metadata: chat(1, { ...vision, ...reasoning }) },
  { pattern: /^deepseek-reasoner/, metadata: { tier: 1, supportsReasoning: true, supportsVision: false, embeddings: false } },
  { pattern: /^deepseek-chat/, metadata: chat(2, { supportsVision: false }) },
  { pattern: /^pixtral/, metadata: chat(3, vision) },
  { pattern: /^mistral-large/, metadata: chat(2) },
  { pattern: /^mistral-(small|medium)/, metadata: chat(3) },
  { pattern: /^codestral/, metadata: chat(3, { supportsVision: false }) },
  { pattern: /^(meta-)?llama-3\.[13].*(70b|405b)/, metadata: chat(3, { supportsVision: false }) },
  { pattern: /^(meta-)?llama-3\.1.*8b/, metadata: chat(5, { supportsVision: false }) },
];

/** The documented capabilities of a well-known model, or undefined. */
export function knownModelMetadata(model: string): ModelMetadata | undefined {
  const name = model.toLowerCase().slice(model.lastIndexOf('/') + 1);
  return knownFamilies.find((family) => family.pattern.test(name))?.metadata;
}
