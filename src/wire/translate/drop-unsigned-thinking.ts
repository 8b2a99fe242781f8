import { isJsonObject, type JsonObject } from '../../core/json.js';

/**
 * Removes thinking blocks without a signature from an Anthropic request's assistant history. Copy on write:
 * `body.messages` is replaced by a new list (with new assistant messages where blocks went), never edited in
 * place, because the client's parsed body is shared with every attempt and forwarded from its own bytes.
 * Those blocks come from translated `reasoning_content` (never signed by Anthropic); real Anthropic rejects
 * them, while Anthropic-compatible hosts that ignore signatures do not need them. Returns how many it removed.
 */
export function dropUnsignedThinking(body: JsonObject): number {
  const messages = body['messages'];
  if (!Array.isArray(messages)) return 0;
  let removed = 0;
  const cleaned = messages.map((message: unknown) => {
    if (!isJsonObject(message) || message['role'] !== 'assistant' || !Array.isArray(message['content'])) return message;
    const content: unknown[] = message['content'];
    const kept = content.filter((block) => !isUnsignedThinking(block));
    if (kept.length === content.length) return message;
    removed += content.length - kept.length;
    return { ...message, content: kept };
  });
  if (removed > 0) body['messages'] = cleaned;
  return removed;
}

function isUnsignedThinking(block: unknown): boolean {
  if (!isJsonObject(block) || block['type'] !== 'thinking') return false;
  const signature = block['signature'];
  return typeof signature !== 'string' || signature === '';
}
