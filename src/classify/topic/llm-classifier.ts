import { z } from 'zod';
import type { TopicClassification, TopicClassifier } from './classifier.js';
import type { ChatMessageLike } from './conversation.js';
import { recentUserTurns } from './conversation.js';
import { topics } from './taxonomy.js';

/** A second opinion on the topic from a language model. Implementations must never throw. */
export interface TopicLlm {
  classify(userTurns: readonly string[], signal: AbortSignal): Promise<{ topic: string; confidence: number } | undefined>;
}

export interface OpenAiCompatibleTopicLlmOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

const answerSchema = z.object({ topic: z.enum(topics), confidence: z.number().min(0).max(1) }).strict();

const systemPrompt = [
  'Classify the topic of the LAST user message (earlier ones are context).',
  `Topics: ${topics.join(', ')}. Use "none" for greetings, thanks, small talk and everyday requests that need no specialist.`,
  'Decide the intent first (technical, analytical, creative, conversational); use the subject only to break ties.',
  'A request to write, edit or translate text is writing_language whatever its subject.',
  'Answer with JSON only: {"topic": "<topic>", "confidence": <0..1>}',
].join('\n');

/**
 * Any OpenAI-compatible chat endpoint as a topic classifier: strict JSON answer, validated; anything else
 * (HTTP error, timeout, malformed or unknown topic) is `undefined`, so the caller keeps its local decision.
 */
export class OpenAiCompatibleTopicLlm implements TopicLlm {
  constructor(private readonly options: OpenAiCompatibleTopicLlmOptions) {}

  async classify(userTurns: readonly string[], signal: AbortSignal): Promise<{ topic: string; confidence: number } | undefined> {
    const fetchFunction = this.options.fetch ?? fetch;
    try {
      const response = await fetchFunction(`${this.options.baseUrl.replace(/\/$/, '')}/chat/completions`, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify({
          model: this.options.model,
          temperature: 0,
          max_tokens: 40,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: systemPrompt },
            { role: 'user', content: userTurns.map((turn, index) => `${index === userTurns.length - 1 ? 'LAST' : 'EARLIER'}: ${turn.slice(0, 2000)}`).join('\n') },
          ],
        }),
      });
      if (!response.ok) return undefined;
      const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') return undefined;
      const parsed = answerSchema.safeParse(JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, '')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}

export interface LlmFallbackOptions {
  timeoutMs: number;
  /** The LLM's confidence needed for its answer to replace the local one. */
  minConfidence: number;
}

/**
 * Hybrid with an LLM: the local classifier decides; only when it finds no confident specialist is the LLM
 * asked, within `timeoutMs`. Fail-open: on timeout, error or a low-confidence answer the local result stands.
 */
export async function classifyTopicWithLlm(classifier: TopicClassifier, llm: TopicLlm, messages: readonly ChatMessageLike[], options: LlmFallbackOptions): Promise<TopicClassification> {
  const local = classifier.classify(messages);
  if (local.topic !== 'none') return local;
  const answer = await llm.classify(recentUserTurns(messages, 3), AbortSignal.timeout(options.timeoutMs)).catch(() => undefined);
  if (!answer || answer.topic === 'none' || answer.confidence < options.minConfidence) return local;
  return { ...local, topic: answer.topic as TopicClassification['topic'], confidence: answer.confidence, decidedBy: 'llm', features: [{ feature: `llm:${answer.topic}`, weight: answer.confidence }] };
}
