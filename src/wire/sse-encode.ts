import type { JsonObject } from '../core/json.js';
import type { AnthropicStreamEvent } from './translate/stream-translator.js';

/** One chat-completions SSE frame. OpenAI streams carry no `event:` line. */
export function encodeOpenAiSseChunk(chunk: JsonObject): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The sentinel that ends a chat-completions stream. */
export const openAiSseDone = 'data: [DONE]\n\n';

/** One Messages SSE frame: Anthropic names every event (`event:` equals `data.type`) and sends no `[DONE]`. */
export function encodeAnthropicSseEvent(event: AnthropicStreamEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
