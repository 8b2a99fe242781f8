import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { ToolView } from '../../core/turn.js';
import type { StrippedToolCalls, ToolRoundTrip } from '../wire-format.js';

/** `{type:"function", function:{name, description}}`. */
export function readOpenAiTool(tool: unknown, index: number): ToolView | undefined {
  if (!isJsonObject(tool)) return undefined;
  const definition = tool['function'];
  if (!isJsonObject(definition)) return undefined;
  const name = definition['name'];
  if (typeof name !== 'string' || name.length === 0) return undefined;
  const description = definition['description'];
  return { name, description: typeof description === 'string' ? description : '', index };
}

export function openAiFunctionTool(definition: { name: string; description: string; parameters: JsonObject }): JsonObject {
  return { type: 'function', function: { name: definition.name, description: definition.description, parameters: definition.parameters } };
}

/** An assistant message with the calls, then one `tool` message per result. */
export function appendOpenAiToolRoundTrip(body: JsonObject, roundTrip: ToolRoundTrip): void {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const { toolName, calls, results, text } = roundTrip;
  const assistant: JsonObject = {
    role: 'assistant',
    content: text,
    tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: toolName, arguments: call.argumentsText || '{}' } })),
  };
  const toolMessages = calls.map((call, index) => ({ role: 'tool', tool_call_id: call.id, content: results[index] ?? '' }));
  body.messages = [...messages, assistant, ...toolMessages];
}

/** The first choice's `tool_calls` without the calls of `toolName`; `finish_reason` `stop` when none is left. */
export function stripOpenAiToolCalls(body: JsonObject, toolName: string): StrippedToolCalls {
  const scan: StrippedToolCalls = { calls: [], recoveryOnly: false, realToolNames: [], text: '', thinking: [] };
  const choice = Array.isArray(body.choices) && isJsonObject(body.choices[0]) ? body.choices[0] : undefined;
  const message = choice && isJsonObject(choice.message) ? choice.message : undefined;
  if (!choice || !message) return scan;
  if (typeof message.content === 'string') scan.text = message.content;
  if (!Array.isArray(message.tool_calls)) return scan;
  const kept: unknown[] = [];
  for (const call of message.tool_calls) {
    const fn = isJsonObject(call) && isJsonObject(call.function) ? call.function : undefined;
    if (fn?.name === toolName && isJsonObject(call)) {
      scan.calls.push({ id: typeof call.id === 'string' ? call.id : 'call_request_toolset', argumentsText: typeof fn.arguments === 'string' ? fn.arguments : '{}' });
    } else {
      kept.push(call);
      if (typeof fn?.name === 'string') scan.realToolNames.push(fn.name);
    }
  }
  scan.recoveryOnly = scan.calls.length > 0 && kept.length === 0;
  if (scan.calls.length > 0) {
    if (kept.length > 0) message.tool_calls = kept;
    else {
      delete message.tool_calls;
      if (choice.finish_reason === 'tool_calls') choice.finish_reason = 'stop';
    }
  }
  return scan;
}
