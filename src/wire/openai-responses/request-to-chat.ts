import { isJsonObject, type JsonObject } from '../../core/json.js';
import { invalidRequest } from '../invalid-request.js';
import { readNumber, readObject, readString } from '../json-read.js';
import type { ResponsesRequest } from './request.js';

export interface ChatRequestFromResponses {
  /** A chat-completions body: what the gateway routes, caches and sends (translated again for Anthropic). */
  chat: JsonObject;
  /** Names of `custom` (free-form input) tools, offered upstream as functions taking `{input}`. */
  customTools: ReadonlySet<string>;
}

/**
 * A Responses request (after the stored conversation it continues) → a chat-completions request.
 * `instructions`, system and developer messages become the one leading system message (compatible servers
 * often refuse a system message anywhere else); `function_call` items become an assistant message's
 * `tool_calls`, `function_call_output` items `tool` messages; a reasoning item's summary rides on the next
 * assistant message as `reasoning_content`. Hosted tools (web search, file search…) and namespaces have no
 * chat-completions equivalent and are dropped. Fields with a direct equivalent are mapped; the rest are dropped.
 * Throws `invalid_request` when nothing in the conversation is a message or a tool output.
 */
export function responsesToChatRequest(request: ResponsesRequest, history: readonly JsonObject[]): ChatRequestFromResponses {
  const body = request.body;
  const customTools = new Set<string>();
  const tools: JsonObject[] = [];
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) {
    if (!isJsonObject(tool)) continue;
    const converted = toolToChat(tool);
    if (converted === undefined) continue;
    if (tool['type'] === 'custom') customTools.add(String(tool['name']));
    tools.push(converted);
  }

  const systemTexts: string[] = [];
  const instructions = readString(body, 'instructions');
  if (instructions !== undefined && instructions.length > 0) systemTexts.push(instructions);
  const messages = itemsToMessages([...history, ...request.inputItems], systemTexts, customTools);
  if (messages.length === 0) throw invalidRequest("'input' has no message or tool output a model can answer.");
  if (systemTexts.length > 0) messages.unshift({ role: 'system', content: systemTexts.join('\n\n') });

  const chat: JsonObject = { model: request.model, messages };
  if (tools.length > 0) {
    chat['tools'] = tools;
    const toolChoice = toolChoiceToChat(body['tool_choice']);
    if (toolChoice !== undefined) chat['tool_choice'] = toolChoice;
    if (typeof body['parallel_tool_calls'] === 'boolean') chat['parallel_tool_calls'] = body['parallel_tool_calls'];
  }
  const maxOutput = readNumber(body, 'max_output_tokens');
  if (maxOutput !== undefined) chat['max_tokens'] = maxOutput;
  for (const field of ['temperature', 'top_p'] as const) {
    const value = readNumber(body, field);
    if (value !== undefined) chat[field] = value;
  }
  const effort = readString(readObject(body, 'reasoning') ?? {}, 'effort');
  if (effort !== undefined && effort !== 'none') chat['reasoning_effort'] = effort;
  const responseFormat = textFormatToChat(readObject(readObject(body, 'text') ?? {}, 'format'));
  if (responseFormat !== undefined) chat['response_format'] = responseFormat;
  const user = readString(body, 'user') ?? readString(body, 'safety_identifier');
  if (user !== undefined) chat['user'] = user;
  if (request.stream) {
    chat['stream'] = true;
    chat['stream_options'] = { include_usage: true };
  }
  return { chat, customTools };
}

function toolToChat(tool: JsonObject): JsonObject | undefined {
  const name = readString(tool, 'name');
  if (name === undefined) return undefined;
  const description = readString(tool, 'description');
  if (tool['type'] === 'function') {
    const definition: JsonObject = { name, parameters: readObject(tool, 'parameters') ?? { type: 'object', properties: {} } };
    if (description !== undefined) definition['description'] = description;
    if (typeof tool['strict'] === 'boolean') definition['strict'] = tool['strict'];
    return { type: 'function', function: definition };
  }
  if (tool['type'] === 'custom') {
    // Free-form input (Codex's apply_patch): a function with one string argument; calls are turned back.
    const definition: JsonObject = {
      name,
      parameters: { type: 'object', properties: { input: { type: 'string', description: 'The raw input for this tool.' } }, required: ['input'] },
    };
    if (description !== undefined) definition['description'] = description;
    return { type: 'function', function: definition };
  }
  return undefined;
}

function toolChoiceToChat(choice: unknown): unknown {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  if (isJsonObject(choice) && (choice['type'] === 'function' || choice['type'] === 'custom') && typeof choice['name'] === 'string') {
    return { type: 'function', function: { name: choice['name'] } };
  }
  return undefined;
}

function textFormatToChat(format: JsonObject | undefined): JsonObject | undefined {
  if (format === undefined) return undefined;
  if (format['type'] === 'json_object') return { type: 'json_object' };
  if (format['type'] !== 'json_schema') return undefined;
  const schema: JsonObject = { name: readString(format, 'name') ?? 'response', schema: readObject(format, 'schema') ?? {} };
  if (typeof format['strict'] === 'boolean') schema['strict'] = format['strict'];
  return { type: 'json_schema', json_schema: schema };
}

function itemsToMessages(items: readonly JsonObject[], systemTexts: string[], customTools: ReadonlySet<string>): JsonObject[] {
  const messages: JsonObject[] = [];
  let pendingReasoning = '';
  /** The assistant message that function calls join (a text answer and its calls are one chat message). */
  const openAssistant = (): JsonObject => {
    const last = messages.at(-1);
    if (last !== undefined && last['role'] === 'assistant') return last;
    const message: JsonObject = { role: 'assistant', content: null };
    messages.push(message);
    return message;
  };
  const takeReasoning = (message: JsonObject): void => {
    if (pendingReasoning.length > 0 && message['reasoning_content'] === undefined) message['reasoning_content'] = pendingReasoning;
    pendingReasoning = '';
  };
  for (const item of items) {
    const type = item['type'] ?? (item['role'] !== undefined ? 'message' : undefined);
    switch (type) {
      case 'message': {
        const role = item['role'];
        if (role === 'system' || role === 'developer') {
          const text = contentText(item['content']);
          if (text.length > 0) systemTexts.push(text);
        } else if (role === 'assistant') {
          const message: JsonObject = { role: 'assistant', content: contentText(item['content']) };
          takeReasoning(message);
          messages.push(message);
        } else if (role === 'user') {
          messages.push({ role: 'user', content: userContent(item['content']) });
        }
        break;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const message = openAssistant();
        takeReasoning(message);
        const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
        const name = readString(item, 'name') ?? '';
        const argumentsText =
          type === 'custom_tool_call' || customTools.has(name)
            ? (readString(item, 'arguments') ?? JSON.stringify({ input: readString(item, 'input') ?? '' }))
            : (readString(item, 'arguments') ?? '{}');
        calls.push({ id: readString(item, 'call_id') ?? '', type: 'function', function: { name, arguments: argumentsText } });
        message['tool_calls'] = calls;
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        messages.push({ role: 'tool', tool_call_id: readString(item, 'call_id') ?? '', content: outputText(item['output']) });
        break;
      case 'reasoning': {
        const summary = Array.isArray(item['summary']) ? item['summary'] : [];
        pendingReasoning = summary.map((part) => (isJsonObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n');
        break;
      }
      default:
        // item_reference, hosted tool calls and anything newer: nothing a chat-completions model can take.
        break;
    }
  }
  return messages;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isJsonObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return contentText(output);
  return output === undefined || output === null ? '' : JSON.stringify(output);
}

/** User content: one string when it is all text, else chat content parts (text, images, files). */
function userContent(content: unknown): unknown {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: JsonObject[] = [];
  for (const part of content) {
    if (!isJsonObject(part)) continue;
    if ((part['type'] === 'input_text' || part['type'] === 'output_text' || part['type'] === 'text') && typeof part['text'] === 'string') {
      parts.push({ type: 'text', text: part['text'] });
    } else if (part['type'] === 'input_image') {
      const url = readString(part, 'image_url');
      if (url === undefined) continue;
      const image: JsonObject = { url };
      const detail = readString(part, 'detail');
      if (detail !== undefined) image['detail'] = detail;
      parts.push({ type: 'image_url', image_url: image });
    } else if (part['type'] === 'input_file') {
      const data = readString(part, 'file_data');
      if (data !== undefined) parts.push({ type: 'file', file: { file_data: data, filename: readString(part, 'filename') ?? 'file' } });
    }
  }
  if (parts.every((part) => part['type'] === 'text')) return parts.map((part) => part['text']).join('\n');
  return parts;
}
