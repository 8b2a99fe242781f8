import { createHash } from 'node:crypto';
import type { Turn } from '../../core/turn.js';
import type { SemanticCacheConfig } from '../../config/cache.js';
import { ignoredFields } from '../response-cache.js';

/** What a semantic lookup compares: the last user message's text, within one namespace that must match exactly. */
export interface SemanticRequest {
  namespace: string;
  text: string;
}

/** Runs of whitespace are one space: line wrapping and indentation do not change a question. */
export function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Splits an exact-cache-eligible request into what may be paraphrased and what may not (see
 * src/cache/ARCHITECTURE.md). Only the last user message is embedded; everything else that shapes the answer is
 * hashed into the namespace and must match byte for byte: the client key, format, stream flag, embedding model,
 * every body field but the messages (requested model, temperature, tools, system in Anthropic's format, …), and
 * every earlier message (system prompt and prior turns). Two conversations that differ before the last question
 * therefore never share an answer, however similar the last questions are.
 *
 * Undefined when the request cannot be compared: the last message is not a user's, has an image (its text alone
 * does not say what was asked), is empty, or is longer than `max_prompt_chars`.
 */
export function semanticRequest(turn: Turn, config: SemanticCacheConfig): SemanticRequest | undefined {
  const last = turn.messages.at(-1);
  const rawMessages = Array.isArray(turn.body.messages) ? turn.body.messages : [];
  if (!last || last.role !== 'user' || last.hasImage || rawMessages.length === 0) return undefined;
  const text = normaliseText(last.text);
  if (text.length === 0 || text.length > config.max_prompt_chars) return undefined;
  const hash = createHash('sha256');
  hash.update(`${turn.clientKeyId ?? '-'}\u0000${turn.format}\u0000${turn.stream ? 'stream' : 'json'}\u0000${config.embedding_model ?? ''}\u0000${turn.topicSkipped ? 'skip' : ''}\u0000`);
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(turn.body).sort()) {
    if (ignoredFields.has(key)) continue;
    rest[key] = key === 'messages' ? rawMessages.slice(0, -1) : turn.body[key];
  }
  hash.update(JSON.stringify(rest));
  return { namespace: `${turn.clientKeyId ?? 'anonymous'}:${hash.digest('hex')}`, text };
}
