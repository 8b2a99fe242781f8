import { isJsonObject, type JsonObject } from '../../core/json.js';
import { readObject, readString } from '../json-read.js';
import { incompleteReason, responseObject, usageFromChat, type ResponseEcho } from './envelope.js';
import { callItem, messageItem, reasoningItem } from './output-items.js';

/** A complete `chat.completion` → a Responses API response object. */
export function chatCompletionToResponse(completion: JsonObject, echo: ResponseEcho, customTools: ReadonlySet<string>): JsonObject {
  const choice = Array.isArray(completion['choices']) && isJsonObject(completion['choices'][0]) ? completion['choices'][0] : {};
  const message = readObject(choice, 'message') ?? {};
  const output: JsonObject[] = [];
  const reasoning = readString(message, 'reasoning_content') ?? readString(message, 'reasoning');
  if (reasoning !== undefined && reasoning.length > 0) output.push(reasoningItem(reasoning));
  const content = message['content'];
  const text = typeof content === 'string' ? content : '';
  if (text.length > 0) output.push(messageItem(text));
  for (const call of Array.isArray(message['tool_calls']) ? message['tool_calls'] : []) {
    if (!isJsonObject(call)) continue;
    const called = readObject(call, 'function') ?? {};
    output.push(callItem(readString(call, 'id') ?? '', readString(called, 'name') ?? '', readString(called, 'arguments') ?? '{}', customTools));
  }
  const reason = incompleteReason(choice['finish_reason']);
  return responseObject(echo, reason === null ? 'completed' : 'incomplete', output, {
    usage: usageFromChat(completion['usage']),
    incompleteReason: reason,
    ...(typeof completion['model'] === 'string' ? { model: completion['model'] } : {}),
  });
}
