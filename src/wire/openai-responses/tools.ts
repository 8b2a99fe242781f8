import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { ToolView } from '../../core/turn.js';
import { readString } from '../json-read.js';
import type { StrippedToolCalls, ToolRoundTrip } from '../wire-format.js';
import { outputMessageText } from './answer-text.js';

/**
 * `{type:"function"|"custom", name, description}`. Any other type is a tool the provider runs (`web_search`,
 * `file_search`, `mcp`, …), read as `hosted` under its name, label or type, so routing keeps it.
 */
export function readResponsesTool(tool: unknown, index: number): ToolView | undefined {
  if (!isJsonObject(tool)) return undefined;
  const type = readString(tool, 'type');
  const description = readString(tool, 'description') ?? '';
  if (type === 'function' || type === 'custom') {
    const name = readString(tool, 'name');
    return name === undefined || name.length === 0 ? undefined : { name, description, index };
  }
  if (type === undefined || type.length === 0) return undefined;
  const name = readString(tool, 'name') ?? readString(tool, 'server_label') ?? type;
  return { name, description, index, hosted: true };
}

/** `strict: false` is explicit: the Responses API makes function tools strict by default, which needs a closed schema. */
export function responsesFunctionTool(definition: { name: string; description: string; parameters: JsonObject }): JsonObject {
  return { type: 'function', name: definition.name, description: definition.description, parameters: definition.parameters, strict: false };
}

/** `input` as a list of items (a string input is one user message). */
export function inputItemsOf(body: JsonObject): unknown[] {
  const input = body['input'];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

/** The assistant's text (if any), its `function_call` items, and one `function_call_output` per result, appended to `input`. */
export function appendResponsesToolRoundTrip(body: JsonObject, roundTrip: ToolRoundTrip): void {
  const { toolName, calls, results, text } = roundTrip;
  const items: JsonObject[] = [];
  if (text) items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const call of calls) items.push({ type: 'function_call', call_id: call.id, name: toolName, arguments: call.argumentsText || '{}' });
  calls.forEach((call, index) => items.push({ type: 'function_call_output', call_id: call.id, output: results[index] ?? '' }));
  body['input'] = [...inputItemsOf(body), ...items];
}

function isCall(item: unknown): item is JsonObject {
  return isJsonObject(item) && (item['type'] === 'function_call' || item['type'] === 'custom_tool_call');
}

/** The response's `output` without the `function_call` items of `toolName`. */
export function stripResponsesToolCalls(body: JsonObject, toolName: string): StrippedToolCalls {
  const scan: StrippedToolCalls = { calls: [], recoveryOnly: false, realToolNames: [], text: outputMessageText(body), thinking: [] };
  const output = Array.isArray(body['output']) ? body['output'] : [];
  const kept: unknown[] = [];
  let realCalls = 0;
  for (const item of output) {
    if (isCall(item) && item['type'] === 'function_call' && item['name'] === toolName) {
      scan.calls.push({ id: readString(item, 'call_id') ?? 'call_request_toolset', argumentsText: readString(item, 'arguments') ?? '{}' });
      continue;
    }
    if (isCall(item)) {
      realCalls += 1;
      const name = readString(item, 'name');
      if (name !== undefined) scan.realToolNames.push(name);
    }
    kept.push(item);
  }
  scan.recoveryOnly = scan.calls.length > 0 && realCalls === 0;
  if (scan.calls.length > 0) body['output'] = kept;
  return scan;
}
