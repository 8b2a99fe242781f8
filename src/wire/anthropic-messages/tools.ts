import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { ToolView } from '../../core/turn.js';
import type { ThinkingBlock } from '../recovery-filter.js';
import type { StrippedToolCalls, ToolRoundTrip } from '../wire-format.js';

/**
 * `{name, description, input_schema}`. Server tools such as `web_search_20250305` have a `type` and a name but no
 * schema; they are read too, and the registry keeps them since nothing owns them.
 */
export function readAnthropicTool(tool: unknown, index: number): ToolView | undefined {
  if (!isJsonObject(tool)) return undefined;
  const name = tool['name'];
  if (typeof name !== 'string' || name.length === 0) return undefined;
  const description = tool['description'];
  return { name, description: typeof description === 'string' ? description : '', index };
}

export function anthropicFunctionTool(definition: { name: string; description: string; parameters: JsonObject }): JsonObject {
  return { name: definition.name, description: definition.description, input_schema: definition.parameters };
}

function parseInput(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * An assistant message (thinking blocks back verbatim, as Anthropic requires in a tool-use loop; the text; the
 * tool_use blocks), then a user message of tool_result blocks.
 */
export function appendAnthropicToolRoundTrip(body: JsonObject, roundTrip: ToolRoundTrip): void {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const { toolName, calls, results, text, thinking } = roundTrip;
  const content: JsonObject[] = thinking.map((block) => ({ ...block }) as unknown as JsonObject);
  if (text) content.push({ type: 'text', text });
  for (const call of calls) content.push({ type: 'tool_use', id: call.id, name: toolName, input: parseInput(call.argumentsText) });
  const resultBlocks = calls.map((call, index) => ({ type: 'tool_result', tool_use_id: call.id, content: results[index] ?? '' }));
  body.messages = [...messages, { role: 'assistant', content }, { role: 'user', content: resultBlocks }];
}

/** `content` without the tool_use blocks of `toolName`; `stop_reason` `end_turn` when no real call is left. */
export function stripAnthropicToolCalls(body: JsonObject, toolName: string): StrippedToolCalls {
  const scan: StrippedToolCalls = { calls: [], recoveryOnly: false, realToolNames: [], text: '', thinking: [] };
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
