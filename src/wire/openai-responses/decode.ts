import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { MessageRole, MessageView, ToolView, Turn } from '../../core/turn.js';
import type { DecodeContext } from '../decode-context.js';
import { approximateJsonLength } from '../json-size.js';
import { readString } from '../json-read.js';
import { turnOf } from '../turn-of.js';
import { readResponsesRequest } from './request.js';
import { readResponsesTool } from './tools.js';

/**
 * Decodes a `/v1/responses` body into a `Turn`. The view's messages are the stored conversation the request
 * continues (`context.continuation`, loaded by the server for `previous_response_id`) followed by its own input,
 * with `instructions` as a leading system message; so a continued request is not mistaken for a first turn.
 * Tools the provider runs (web search, file search, MCP…) are viewed as `hosted`: routing never drops them.
 */
export function decodeResponsesRequest(body: unknown, context: DecodeContext): Turn {
  const request = readResponsesRequest(body);
  const messages: MessageView[] = [];
  const instructions = readString(request.body, 'instructions');
  if (instructions !== undefined && instructions.length > 0) messages.push({ role: 'system', text: instructions, toolCallNames: [], hasImage: false });
  const prior = context.continuation?.items ?? [];
  for (const item of [...prior, ...request.inputItems]) addItemView(messages, item);
  const rawTools = Array.isArray(request.body['tools']) ? request.body['tools'] : [];
  const tools: ToolView[] = [];
  rawTools.forEach((tool, index) => {
    const view = readResponsesTool(tool, index);
    if (view !== undefined) tools.push(view);
  });
  let characters = context.bodyLength ?? approximateJsonLength(request.body);
  if (prior.length > 0) characters += approximateJsonLength(prior);
  return turnOf('openai-responses', request.body, context, {
    requestedModel: request.model,
    stream: request.stream,
    messages,
    tools,
    hasImages: messages.some((message) => message.hasImage),
    characters,
  });
}

function roleOf(role: unknown): MessageRole | undefined {
  if (role === 'system' || role === 'developer') return 'system';
  if (role === 'user' || role === 'assistant') return role;
  return undefined;
}

/** One input item as a message view: calls join the assistant message before them, as in chat completions. */
function addItemView(messages: MessageView[], item: JsonObject): void {
  const type = item['type'] ?? (item['role'] !== undefined ? 'message' : undefined);
  if (type === 'message') {
    const role = roleOf(item['role']);
    if (role === undefined) return;
    const { text, hasImage } = contentView(item['content']);
    messages.push({ role, text, toolCallNames: [], hasImage });
  } else if (type === 'function_call' || type === 'custom_tool_call') {
    const name = readString(item, 'name') ?? '';
    const last = messages.at(-1);
    if (last !== undefined && last.role === 'assistant') last.toolCallNames.push(name);
    else messages.push({ role: 'assistant', text: '', toolCallNames: [name], hasImage: false });
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const output = item['output'];
    messages.push({ role: 'tool', text: typeof output === 'string' ? output : contentView(output).text, toolCallNames: [], hasImage: false });
  }
}

function contentView(content: unknown): { text: string; hasImage: boolean } {
  if (typeof content === 'string') return { text: content, hasImage: false };
  if (!Array.isArray(content)) return { text: '', hasImage: false };
  const texts: string[] = [];
  let hasImage = false;
  for (const part of content) {
    if (!isJsonObject(part)) continue;
    if (typeof part['text'] === 'string') texts.push(part['text']);
    else if (part['type'] === 'input_image') hasImage = true;
  }
  return { text: texts.join('\n'), hasImage };
}
