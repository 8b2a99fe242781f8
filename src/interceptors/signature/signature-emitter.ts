import type { ApiFormat } from '../../core/api-format.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import { signatureSeparator } from './routing-signature.js';

/** Same shape as the relay's ClientEmitter (src/interceptors/client-emitter.ts), so this wraps one. */
export interface EventSink {
  emit(payload: JsonObject, raw: string | undefined, eventName: string | undefined): void;
  done(): void;
}

function openAiFinish(payload: JsonObject): string | undefined {
  const choice = Array.isArray(payload.choices) ? payload.choices[0] : undefined;
  if (!isJsonObject(choice) || typeof choice.finish_reason !== 'string') return undefined;
  return choice.finish_reason;
}

/**
 * Adds the routing signature to a streamed answer, as one more text delta just before the stream says it is
 * finished: OpenAI, a content chunk right before the chunk carrying `finish_reason: "stop"`/`"length"`; Anthropic,
 * a text block of its own (start, delta, stop) right before `message_delta` with `end_turn`/`max_tokens`. Turns
 * that end in tool calls get none. `signature` is asked for only at that moment, so it names the model that
 * actually answered.
 */
export function signatureEmitter(inner: EventSink, format: ApiFormat, signature: () => string): EventSink {
  let appended = false;
  let nextBlockIndex = 0;
  return {
    emit(payload, raw, eventName) {
      if (!appended && format === 'openai-chat') {
        const finish = openAiFinish(payload);
        if (finish === 'stop' || finish === 'length') {
          appended = true;
          const chunk: JsonObject = {
            id: payload.id ?? null,
            object: payload.object ?? 'chat.completion.chunk',
            created: payload.created ?? Math.floor(Date.now() / 1000),
            model: payload.model ?? null,
            choices: [{ index: 0, delta: { content: `${signatureSeparator}${signature()}` }, finish_reason: null }],
          };
          inner.emit(chunk, undefined, undefined);
        }
      }
      if (format === 'anthropic-messages') {
        if (payload.type === 'content_block_start' && typeof payload.index === 'number') nextBlockIndex = Math.max(nextBlockIndex, payload.index + 1);
        const delta = isJsonObject(payload.delta) ? payload.delta : undefined;
        const stop = delta?.stop_reason;
        if (!appended && payload.type === 'message_delta' && (stop === 'end_turn' || stop === 'max_tokens' || stop === 'stop_sequence')) {
          appended = true;
          const index = nextBlockIndex;
          inner.emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, undefined, 'content_block_start');
          inner.emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: `${signatureSeparator}${signature()}` } }, undefined, 'content_block_delta');
          inner.emit({ type: 'content_block_stop', index }, undefined, 'content_block_stop');
        }
      }
      inner.emit(payload, raw, eventName);
    },
    done() {
      inner.done();
    },
  };
}
