import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { MessageRole, MessageView, ToolView, Turn } from '../../core/turn.js';
import type { DecodeContext } from '../decode-context.js';
import { turnOf } from '../turn-of.js';
import { invalidRequest } from '../invalid-request.js';
import { approximateJsonLength } from '../json-size.js';

/** OpenAI roles → the view's roles; `developer` is the newer name for `system`, `function` the legacy `tool`. */
function roleView(role: unknown): MessageRole | undefined {
  switch (role) {
    case 'system':
    case 'developer':
      return 'system';
    case 'user':
    case 'assistant':
    case 'tool':
      return role;
    case 'function':
      return 'tool';
    default:
      return undefined;
  }
}

/**
 * Decodes a `/v1/chat/completions` body into a `Turn`. Validation is strict about what routing relies on
 * (model, messages, roles, content shapes, tools, stream) and silent about everything else, which passes
 * upstream untouched. Throws `GatewayError('invalid_request')` naming the field.
 */
export function decodeOpenAiChatRequest(body: unknown, context: DecodeContext): Turn {
  if (!isJsonObject(body)) throw invalidRequest('The request body must be a JSON object.');
  const model = body['model'];
  if (typeof model !== 'string' || model.length === 0) {
    throw invalidRequest("'model' is required and must be a non-empty string.");
  }
  const stream = body['stream'];
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
    throw invalidRequest("'stream' must be a boolean.");
  }
  const rawMessages = body['messages'];
  if (!Array.isArray(rawMessages) || rawMessages.length === 0) {
    throw invalidRequest("'messages' is required and must be a non-empty array.");
  }

  const walk = context.bodyLength === undefined;
  let characters = walk ? 0 : (context.bodyLength ?? 0);
  let hasImages = false;
  const messages: MessageView[] = new Array(rawMessages.length);
  for (let index = 0; index < rawMessages.length; index++) {
    const message: unknown = rawMessages[index];
    if (!isJsonObject(message)) throw invalidRequest(`'messages[${index}]' must be an object.`);
    const view = decodeMessage(message, index);
    messages[index] = view;
    if (view.hasImage) hasImages = true;
    if (walk) characters += approximateJsonLength(message) + 1;
  }

  const tools = decodeTools(body['tools']);
  if (walk && tools.length > 0) characters += approximateJsonLength(body['tools']);

  return turnOf('openai-chat', body, context, { requestedModel: model, stream: stream === true, messages, tools, hasImages, characters });
}

function decodeMessage(message: JsonObject, index: number): MessageView {
  const role = message['role'];
  const viewRole = roleView(role);
  if (viewRole === undefined) {
    throw invalidRequest(
      `'messages[${index}].role' must be one of system, developer, user, assistant, tool (got ${JSON.stringify(role)}).`,
    );
  }
  const content = message['content'];
  let text = '';
  let hasImage = false;
  if (typeof content === 'string') {
    text = content;
  } else if (Array.isArray(content)) {
    const texts: string[] = [];
    for (let partIndex = 0; partIndex < content.length; partIndex++) {
      const part: unknown = content[partIndex];
      if (!isJsonObject(part) || typeof part['type'] !== 'string') {
        throw invalidRequest(`'messages[${index}].content[${partIndex}]' must be an object with a string 'type'.`);
      }
      const type = part['type'];
      if (type === 'text') {
        const partText = part['text'];
        if (typeof partText !== 'string') {
          throw invalidRequest(`'messages[${index}].content[${partIndex}].text' must be a string.`);
        }
        texts.push(partText);
      } else if (type === 'image_url' || type === 'input_image') {
        hasImage = true;
      }
    }
    text = texts.join('\n');
  } else if (content !== null && content !== undefined) {
    throw invalidRequest(`'messages[${index}].content' must be a string, an array of content parts, or null.`);
  } else if (viewRole === 'user' || viewRole === 'system') {
    throw invalidRequest(`'messages[${index}].content' is required for a ${String(role)} message.`);
  }

  const toolCallNames: string[] = [];
  const toolCalls = message['tool_calls'];
  if (toolCalls !== undefined && toolCalls !== null) {
    if (!Array.isArray(toolCalls)) throw invalidRequest(`'messages[${index}].tool_calls' must be an array.`);
    for (let callIndex = 0; callIndex < toolCalls.length; callIndex++) {
      const call: unknown = toolCalls[callIndex];
      const called = isJsonObject(call) ? (call['function'] ?? call['custom']) : undefined;
      const name = isJsonObject(called) ? called['name'] : undefined;
      if (typeof name !== 'string') {
        throw invalidRequest(`'messages[${index}].tool_calls[${callIndex}].function.name' must be a string.`);
      }
      toolCallNames.push(name);
    }
  }
  return { role: viewRole, text, toolCallNames, hasImage };
}

function decodeTools(rawTools: unknown): ToolView[] {
  if (rawTools === undefined || rawTools === null) return [];
  if (!Array.isArray(rawTools)) throw invalidRequest("'tools' must be an array.");
  const tools: ToolView[] = new Array(rawTools.length);
  for (let index = 0; index < rawTools.length; index++) {
    const tool: unknown = rawTools[index];
    // `custom` tools (free-form input) carry their name the same way as function tools.
    const definition = isJsonObject(tool) ? (tool['function'] ?? tool['custom']) : undefined;
    const name = isJsonObject(definition) ? definition['name'] : undefined;
    if (!isJsonObject(definition) || typeof name !== 'string' || name.length === 0) {
      throw invalidRequest(`'tools[${index}].function.name' is required and must be a non-empty string.`);
    }
    const description = definition['description'];
    tools[index] = { name, description: typeof description === 'string' ? description : '', index };
  }
  return tools;
}
