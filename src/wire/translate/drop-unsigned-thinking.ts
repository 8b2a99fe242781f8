import { isJsonObject, type JsonObject } from '../../core/json.js';

/**
 * Removes thinking blocks without a signature from an Anthropic request's assistant history, in place.
 * Those blocks come from translated `reasoning_content` (never signed by Anthropic); real Anthropic rejects
 * them, while Anthropic-compatible hosts that ignore signatures do not need them. Returns how many it removed.
 */
export function dropUnsignedThinking(body: JsonObject): number {
  const messages = body['messages'];
  if (!Array.isArray(messages)) return 0;
  let removed = 0;
  for (const message of messages) {
    if (!isJsonObject(message) || message['role'] !== 'assistant' || !Array.isArray(message['content'])) continue;
    const content: unknown[] = message['content'];
    const kept = content.filter((block) => !isUnsignedThinking(block));
    removed += content.length - kept.length;
    if (kept.length !== content.length) message['content'] = kept;
  }
  return removed;
}

function isUnsignedThinking(block: unknown): boolean {
  if (!isJsonObject(block) || block['type'] !== 'thinking') return false;
  const signature = block['signature'];
  return typeof signature !== 'string' || signature === '';
}
