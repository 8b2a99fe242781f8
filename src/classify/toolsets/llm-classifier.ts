import { z } from 'zod';

/**
 * Optional second opinion for first messages the local classifier abstains on: one small chat completion on
 * any OpenAI-compatible endpoint, with a strict JSON contract. Every failure (timeout, HTTP error, malformed or
 * out-of-catalog answer) returns undefined, and the caller keeps the full surface: it can only ever narrow a
 * request that would otherwise have gone out whole.
 */
export interface LlmClassifierSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  /** Sugar for `chat_template_kwargs: {enable_thinking: false}` (reasoning templates answer into reasoning_content). */
  disableThinking: boolean;
  /** Merged into the request body last, verbatim. */
  extraBody: Record<string, unknown>;
  fetch?: typeof fetch;
}

export interface LlmToolsetAnswer {
  toolsets: string[];
  confidence: number;
}

const answerSchema = z.object({ toolsets: z.array(z.string()), confidence: z.number().min(0).max(1) }).strict();

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }).loose() }).loose()).min(1),
}).loose();

export function buildClassifierPrompt(toolsets: readonly { name: string; description: string }[]): string {
  return [
    'You route an AI agent\'s first user message to the toolsets it needs. Toolsets:',
    ...toolsets.map((toolset) => `- ${toolset.name}: ${toolset.description}`),
    'Reply with JSON only, no prose: {"toolsets": [names from the list], "confidence": number from 0 to 1}.',
    'Use [] when the message needs no tool (chat, knowledge, writing). A negated or quoted instruction ("don\'t run the tests") is not a request.',
  ].join('\n');
}

export async function classifyWithLlm(settings: LlmClassifierSettings, text: string, toolsets: readonly { name: string; description: string }[]): Promise<LlmToolsetAnswer | undefined> {
  const body: Record<string, unknown> = {
    model: settings.model,
    messages: [
      { role: 'system', content: buildClassifierPrompt(toolsets) },
      { role: 'user', content: text },
    ],
    temperature: 0,
    max_tokens: 200,
    stream: false,
    ...(settings.disableThinking ? { chat_template_kwargs: { enable_thinking: false } } : {}),
    ...settings.extraBody,
  };
  try {
    const response = await (settings.fetch ?? fetch)(`${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    if (!response.ok) return undefined;
    const completion = completionSchema.safeParse(await response.json());
    const content = completion.success ? completion.data.choices[0]?.message.content : undefined;
    if (!content) return undefined;
    const json = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
    const answer = answerSchema.safeParse(JSON.parse(json));
    if (!answer.success) return undefined;
    const known = new Set(toolsets.map((toolset) => toolset.name));
    if (!answer.data.toolsets.every((name) => known.has(name))) return undefined;
    return answer.data;
  } catch {
    return undefined;
  }
}
