import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { ClientEmitter } from '../client-emitter.js';

/** `choices[0].message.content` of a complete response. */
export function openAiResponseText(body: JsonObject): string {
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (isJsonObject(choice) && isJsonObject(choice.message) && typeof choice.message.content === 'string') {
    return choice.message.content;
  }
  return '';
}

/** `choices[0].delta.content` of one chunk. */
export function openAiChunkText(payload: JsonObject): string {
  const choice = Array.isArray(payload.choices) ? payload.choices[0] : undefined;
  if (isJsonObject(choice) && isJsonObject(choice.delta) && typeof choice.delta.content === 'string') return choice.delta.content;
  return '';
}

/** Appends to the first choice's text content; an answer without text (tool calls only) is left alone. */
export function appendTextToOpenAiBody(body: JsonObject, text: string): boolean {
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isJsonObject(choice) || !isJsonObject(choice.message)) return false;
  const content = choice.message.content;
  if (typeof content !== 'string' || content === '') return false;
  choice.message.content = `${content}${text}`;
  return true;
}

function finishReason(payload: JsonObject): string | undefined {
  const choice = Array.isArray(payload.choices) ? payload.choices[0] : undefined;
  if (!isJsonObject(choice) || typeof choice.finish_reason !== 'string') return undefined;
  return choice.finish_reason;
}

/** A content chunk right before the chunk carrying `finish_reason` `stop` or `length`. */
export function appendTextToOpenAiStream(inner: ClientEmitter, text: () => string): ClientEmitter {
  let appended = false;
  return {
    emit(payload, raw, eventName) {
      if (!appended) {
        const finish = finishReason(payload);
        if (finish === 'stop' || finish === 'length') {
          appended = true;
          const chunk: JsonObject = {
            id: payload.id ?? null,
            object: payload.object ?? 'chat.completion.chunk',
            created: payload.created ?? Math.floor(Date.now() / 1000),
            model: payload.model ?? null,
            choices: [{ index: 0, delta: { content: text() }, finish_reason: null }],
          };
          inner.emit(chunk, undefined, undefined);
        }
      }
      inner.emit(payload, raw, eventName);
    },
    done() {
      inner.done();
    },
  };
}
