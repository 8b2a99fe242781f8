import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { StreamEvent } from '../wire-format.js';

/**
 * The Responses event sequence of a complete response object (for an upstream that answered `stream: true` with
 * one body): `response.created`, `response.in_progress`, each output item added, its text or arguments as one
 * delta, done, and the terminal event (`response.completed`, `.incomplete` or `.failed`) with the whole response.
 */
export function responsesBodyAsEvents(body: JsonObject): StreamEvent[] {
  const payloads: JsonObject[] = [];
  const started = { ...body, status: 'in_progress', output: [] };
  payloads.push({ type: 'response.created', response: started }, { type: 'response.in_progress', response: started });
  const output = Array.isArray(body['output']) ? body['output'].filter(isJsonObject) : [];
  output.forEach((item, outputIndex) => {
    const itemId = item['id'] ?? null;
    payloads.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', ...(item['type'] === 'message' ? { content: [] } : {}) } });
    if (item['type'] === 'message' && Array.isArray(item['content'])) {
      item['content'].forEach((part, contentIndex) => {
        if (!isJsonObject(part)) return;
        const text = typeof part['text'] === 'string' ? part['text'] : '';
        const base = { item_id: itemId, output_index: outputIndex, content_index: contentIndex };
        payloads.push({ type: 'response.content_part.added', ...base, part: { ...part, text: '' } });
        if (part['type'] === 'output_text') {
          payloads.push({ type: 'response.output_text.delta', ...base, delta: text, logprobs: [] });
          payloads.push({ type: 'response.output_text.done', ...base, text, logprobs: [] });
        }
        payloads.push({ type: 'response.content_part.done', ...base, part });
      });
    } else if (item['type'] === 'function_call' && typeof item['arguments'] === 'string') {
      const base = { item_id: itemId, output_index: outputIndex };
      payloads.push({ type: 'response.function_call_arguments.delta', ...base, delta: item['arguments'] });
      payloads.push({ type: 'response.function_call_arguments.done', ...base, name: item['name'] ?? null, arguments: item['arguments'] });
    }
    payloads.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  const status = body['status'];
  const terminal = status === 'incomplete' ? 'response.incomplete' : status === 'failed' ? 'response.failed' : 'response.completed';
  payloads.push({ type: terminal, response: body });
  return payloads.map((payload, sequence) => ({ payload: { ...payload, sequence_number: sequence }, eventName: String(payload['type']) }));
}
