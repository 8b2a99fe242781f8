import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { ClientEmitter } from '../client-emitter.js';

/** The `output_text` parts of a response's message items. */
export function outputMessageText(response: JsonObject): string {
  let text = '';
  for (const item of Array.isArray(response['output']) ? response['output'] : []) {
    if (!isJsonObject(item) || item['type'] !== 'message' || !Array.isArray(item['content'])) continue;
    for (const part of item['content']) if (isJsonObject(part) && part['type'] === 'output_text' && typeof part['text'] === 'string') text += part['text'];
  }
  return text;
}

/** The text one event adds: `response.output_text.delta`. */
export function responsesEventText(payload: JsonObject): string {
  return payload['type'] === 'response.output_text.delta' && typeof payload['delta'] === 'string' ? payload['delta'] : '';
}

/** The last `output_text` part of the last message item, or undefined. */
function lastTextPart(output: unknown): JsonObject | undefined {
  if (!Array.isArray(output)) return undefined;
  for (let index = output.length - 1; index >= 0; index -= 1) {
    const item: unknown = output[index];
    if (isJsonObject(item) && (item['type'] === 'function_call' || item['type'] === 'custom_tool_call')) return undefined;
    if (!isJsonObject(item) || item['type'] !== 'message' || !Array.isArray(item['content'])) continue;
    const part: unknown = item['content'].at(-1);
    return isJsonObject(part) && part['type'] === 'output_text' && typeof part['text'] === 'string' && part['text'] !== '' ? part : undefined;
  }
  return undefined;
}

/** Appends to the answer's last text; an answer that ends in a call (or has no text) is left alone. */
export function appendTextToResponsesBody(body: JsonObject, text: string): boolean {
  const part = lastTextPart(body['output']);
  if (part === undefined) return false;
  part['text'] = `${String(part['text'])}${text}`;
  return true;
}

const closingTypes = new Set(['response.output_text.done', 'response.content_part.done', 'response.output_item.done']);

/**
 * One more `output_text.delta` on the last message item, when the response completes right after it: the
 * events that close a message item are held until the next event shows whether another item follows (then they
 * go on unchanged) or `response.completed` does (then the delta goes first and the closing events, and the
 * final response, carry the longer text). Sequence numbers after the insertion move up by one.
 */
export function appendTextToResponsesStream(inner: ClientEmitter, text: () => string): ClientEmitter {
  let held: { payload: JsonObject; raw: string | undefined; eventName: string | undefined }[] = [];
  let shift = 0;
  let appended = false;
  const send = (payload: JsonObject, raw: string | undefined, eventName: string | undefined): void => {
    if (shift > 0 && typeof payload['sequence_number'] === 'number') inner.emit({ ...payload, sequence_number: payload['sequence_number'] + shift }, undefined, eventName);
    else inner.emit(payload, raw, eventName);
  };
  const flush = (): void => {
    for (const event of held) send(event.payload, event.raw, event.eventName);
    held = [];
  };
  return {
    emit(payload, raw, eventName) {
      const type = payload['type'];
      if (!appended && typeof type === 'string' && closingTypes.has(type)) {
        const item = isJsonObject(payload['item']) ? payload['item'] : undefined;
        if (type !== 'response.output_item.done' || item?.['type'] === 'message') {
          held.push({ payload, raw, eventName });
          return;
        }
      }
      const response = isJsonObject(payload['response']) ? payload['response'] : undefined;
      const textDone = held.find((event) => event.payload['type'] === 'response.output_text.done');
      if (type === 'response.completed' && !appended && textDone !== undefined && response !== undefined && lastTextPart(response['output']) !== undefined) {
        appended = true;
        const extra = text();
        const done = textDone.payload;
        const sequence = typeof done['sequence_number'] === 'number' ? done['sequence_number'] + shift : undefined;
        inner.emit(
          {
            type: 'response.output_text.delta',
            ...(sequence === undefined ? {} : { sequence_number: sequence }),
            item_id: done['item_id'] ?? null,
            output_index: done['output_index'] ?? 0,
            content_index: done['content_index'] ?? 0,
            delta: extra,
            logprobs: [],
          },
          undefined,
          'response.output_text.delta',
        );
        shift += 1;
        held = held.map((event) => ({ ...event, payload: withLongerText(event.payload, extra), raw: undefined }));
        flush();
        const copy = structuredClone(response);
        appendTextToResponsesBody(copy, extra);
        send({ ...payload, response: copy }, undefined, eventName);
        return;
      }
      flush();
      send(payload, raw, eventName);
    },
    done() {
      flush();
      inner.done();
    },
  };
}

/** A closing event of the last message item with `extra` at the end of its text. */
function withLongerText(payload: JsonObject, extra: string): JsonObject {
  if (typeof payload['text'] === 'string') return { ...payload, text: `${payload['text']}${extra}` };
  if (isJsonObject(payload['part']) && typeof payload['part']['text'] === 'string') return { ...payload, part: { ...payload['part'], text: `${payload['part']['text']}${extra}` } };
  if (isJsonObject(payload['item'])) {
    const item = structuredClone(payload['item']);
    appendTextToResponsesBody({ output: [item] }, extra);
    return { ...payload, item };
  }
  return payload;
}
