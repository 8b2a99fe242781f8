import type { ApiFormat } from '../core/api-format.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json.js';
import type { SseWriter } from '../server/sse-writer.js';

function openAiEvents(body: JsonObject, includeUsage: boolean): JsonObject[] {
  const base = { id: body.id ?? 'chatcmpl-hermes-router', object: 'chat.completion.chunk', created: body.created ?? Math.floor(Date.now() / 1000), model: body.model };
  const choice = Array.isArray(body.choices) && isJsonObject(body.choices[0]) ? body.choices[0] : {};
  const message = isJsonObject(choice.message) ? choice.message : {};
  const chunks: JsonObject[] = [];
  const delta: JsonObject = { role: 'assistant', content: typeof message.content === 'string' ? message.content : '' };
  if (typeof message.reasoning_content === 'string') delta.reasoning_content = message.reasoning_content;
  chunks.push({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
  if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
    const calls = message.tool_calls.filter(isJsonObject).map((call, index) => ({ index, ...call }));
    chunks.push({ ...base, choices: [{ index: 0, delta: { tool_calls: calls }, finish_reason: null }] });
  }
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason ?? 'stop' }] });
  if (includeUsage && isJsonObject(body.usage)) chunks.push({ ...base, choices: [], usage: body.usage });
  return chunks;
}

function anthropicEvents(body: JsonObject): { event: string; data: JsonObject }[] {
  const content = Array.isArray(body.content) ? body.content.filter(isJsonObject) : [];
  const usage = isJsonObject(body.usage) ? body.usage : {};
  const events: { event: string; data: JsonObject }[] = [
    { event: 'message_start', data: { type: 'message_start', message: { ...body, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 0 } } } },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text ?? '' } } });
    } else if (block.type === 'tool_use') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { ...block, input: {} } } });
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) } } });
    } else if (block.type === 'thinking') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } } });
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking ?? '' } } });
      if (typeof block.signature === 'string') events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } } });
    } else {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: { type: 'message_delta', delta: { stop_reason: body.stop_reason ?? 'end_turn', stop_sequence: body.stop_sequence ?? null }, usage: { output_tokens: usage.output_tokens ?? 0 } },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/**
 * A complete client-format response written as a stream, for providers that ignore `stream: true` and answer
 * with one JSON body: the client asked for a stream and gets a well-formed one.
 */
export function writeJsonAsStream(writer: SseWriter, body: JsonObject, format: ApiFormat, includeUsage: boolean): void {
  if (format === 'openai-chat') {
    for (const chunk of openAiEvents(body, includeUsage)) writer.writeJson(chunk);
    writer.writeDone();
  } else {
    for (const event of anthropicEvents(body)) writer.writeJson(event.data, event.event);
  }
  writer.end();
}
