import type { JsonObject } from '../../core/json.js';
import { responsesId } from './ids.js';

/** Output items in their final (`completed`) form; the stream translator opens them `in_progress` first. */

export function messageItem(text: string, id = responsesId('msg'), status = 'completed'): JsonObject {
  return { id, type: 'message', status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

export function reasoningItem(text: string, id = responsesId('rs')): JsonObject {
  return { id, type: 'reasoning', summary: text.length > 0 ? [{ type: 'summary_text', text }] : [] };
}

/**
 * A call the model made. Calls to a `custom` tool were offered upstream as a function taking `{input}`: they
 * go back to the client as `custom_tool_call` with that input.
 */
export function callItem(callId: string, name: string, argumentsText: string, customTools: ReadonlySet<string>, id?: string): JsonObject {
  if (customTools.has(name)) {
    let input = argumentsText;
    try {
      const parsed: unknown = JSON.parse(argumentsText);
      if (typeof parsed === 'object' && parsed !== null && 'input' in parsed && typeof parsed.input === 'string') input = parsed.input;
    } catch {
      // Not JSON: the model wrote the input itself; pass it on as it is.
    }
    return { id: id ?? responsesId('ctc'), type: 'custom_tool_call', status: 'completed', call_id: callId, name, input };
  }
  return { id: id ?? responsesId('fc'), type: 'function_call', status: 'completed', call_id: callId, name, arguments: argumentsText };
}
