import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { StreamEvent } from '../wire-format.js';

/** The chunks of a chat-completions stream that carries `body` (role and text, tool calls, finish, usage). */
export function openAiBodyAsChunks(body: JsonObject, includeUsage: boolean): StreamEvent[] {
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
  return chunks.map((payload) => ({ payload, eventName: undefined }));
}
