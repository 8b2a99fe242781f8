import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { ClientEmitter } from '../client-emitter.js';

/** The text blocks of a complete response, joined. */
export function anthropicResponseText(body: JsonObject): string {
  if (!Array.isArray(body.content)) return '';
  return body.content.map((block) => (isJsonObject(block) && typeof block.text === 'string' ? block.text : '')).join('');
}

/** The text one event adds: a text delta, or a tool's input JSON (usage estimates count both). */
export function anthropicEventText(payload: JsonObject): string {
  if (payload.type === 'content_block_delta' && isJsonObject(payload.delta)) {
    const delta = payload.delta;
    if (typeof delta.text === 'string') return delta.text;
    if (typeof delta.partial_json === 'string') return delta.partial_json;
  }
  return '';
}

/** Appends to the last text block; an answer that stopped for tool use is left alone. */
export function appendTextToAnthropicBody(body: JsonObject, text: string): boolean {
  if (!Array.isArray(body.content) || body.stop_reason === 'tool_use') return false;
  for (let index = body.content.length - 1; index >= 0; index -= 1) {
    const block = body.content[index];
    if (isJsonObject(block) && block.type === 'text' && typeof block.text === 'string') {
      block.text = `${block.text}${text}`;
      return true;
    }
  }
  return false;
}

/** A text block of its own (start, delta, stop) right before `message_delta` with a normal stop reason. */
export function appendTextToAnthropicStream(inner: ClientEmitter, text: () => string): ClientEmitter {
  let appended = false;
  let nextBlockIndex = 0;
  return {
    emit(payload, raw, eventName) {
      if (payload.type === 'content_block_start' && typeof payload.index === 'number') nextBlockIndex = Math.max(nextBlockIndex, payload.index + 1);
      const delta = isJsonObject(payload.delta) ? payload.delta : undefined;
      const stop = delta?.stop_reason;
      if (!appended && payload.type === 'message_delta' && (stop === 'end_turn' || stop === 'max_tokens' || stop === 'stop_sequence')) {
        appended = true;
        const index = nextBlockIndex;
        inner.emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, undefined, 'content_block_start');
        inner.emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: text() } }, undefined, 'content_block_delta');
        inner.emit({ type: 'content_block_stop', index }, undefined, 'content_block_stop');
      }
      inner.emit(payload, raw, eventName);
    },
    done() {
      inner.done();
    },
  };
}
