import type { ApiFormat } from '../../core/api-format.js';
import type { JsonObject } from '../../core/json.js';
import type { InterceptedCall, ThinkingBlock } from './recovery-filter.js';

function parseInput(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Appends the model's `request_toolset` call and the gateway's answer to the conversation, in the client's
 * format, so the re-issued request reads as an ordinary tool round trip. The messages array is replaced, never
 * mutated: earlier attempts may still hold the old one.
 */
export function appendRecoveryTurn(
  body: JsonObject,
  format: ApiFormat,
  toolName: string,
  calls: InterceptedCall[],
  results: string[],
  text: string,
  thinking: ThinkingBlock[],
): void {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  if (format === 'openai-chat') {
    const assistant: JsonObject = {
      role: 'assistant',
      content: text,
      tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: toolName, arguments: call.argumentsText || '{}' } })),
    };
    const toolMessages = calls.map((call, index) => ({ role: 'tool', tool_call_id: call.id, content: results[index] ?? '' }));
    body.messages = [...messages, assistant, ...toolMessages];
    return;
  }
  const content: JsonObject[] = thinking.map((block) => ({ ...block }) as unknown as JsonObject);
  if (text) content.push({ type: 'text', text });
  for (const call of calls) content.push({ type: 'tool_use', id: call.id, name: toolName, input: parseInput(call.argumentsText) });
  const resultBlocks = calls.map((call, index) => ({ type: 'tool_result', tool_use_id: call.id, content: results[index] ?? '' }));
  body.messages = [...messages, { role: 'assistant', content }, { role: 'user', content: resultBlocks }];
}
