import type { ApiFormat } from '../../core/api-format.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { InterceptedCall, ThinkingBlock } from './recovery-filter.js';

export interface JsonRecoveryScan {
  calls: InterceptedCall[];
  /** The response asked only for toolsets: re-issue instead of answering. */
  recoveryOnly: boolean;
  realToolNames: string[];
  text: string;
  thinking: ThinkingBlock[];
}

/**
 * Finds `request_toolset` calls in a complete client-format response and removes them, so the client never sees
 * one. A response left with no tool calls gets a plain stop reason.
 */
export function scanAndStripJson(body: JsonObject, format: ApiFormat, toolName: string): JsonRecoveryScan {
  const scan: JsonRecoveryScan = { calls: [], recoveryOnly: false, realToolNames: [], text: '', thinking: [] };
  if (format === 'openai-chat') {
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
  if (!Array.isArray(body.content)) return scan;
  const kept: unknown[] = [];
  for (const block of body.content) {
    if (!isJsonObject(block)) continue;
    if (block.type === 'tool_use' && block.name === toolName) {
      scan.calls.push({ id: typeof block.id === 'string' ? block.id : 'toolu_request_toolset', argumentsText: JSON.stringify(block.input ?? {}) });
      continue;
    }
    kept.push(block);
    if (block.type === 'text' && typeof block.text === 'string') scan.text += block.text;
    if (block.type === 'tool_use' && typeof block.name === 'string') scan.realToolNames.push(block.name);
    if (block.type === 'thinking' || block.type === 'redacted_thinking') scan.thinking.push(block as unknown as ThinkingBlock);
  }
  scan.recoveryOnly = scan.calls.length > 0 && scan.realToolNames.length === 0;
  if (scan.calls.length > 0) {
    body.content = kept;
    if (scan.realToolNames.length === 0 && body.stop_reason === 'tool_use') body.stop_reason = 'end_turn';
  }
  return scan;
}
