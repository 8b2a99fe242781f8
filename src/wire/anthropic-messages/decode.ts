import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { MessageView, ToolView, Turn } from '../../core/turn.js';
import type { DecodeContext } from '../decode-context.js';
import { turnOf } from '../turn-of.js';
import { invalidRequest } from '../invalid-request.js';
import { approximateJsonLength } from '../json-size.js';

/**
 * Decodes a `/v1/messages` body into a `Turn`. The top-level `system` becomes a leading system view. A user
 * message that carries only `tool_result` blocks is viewed as a `tool` message, so routing sees the same turn
 * structure it sees for OpenAI bodies. Throws `GatewayError('invalid_request')` naming the field, including
 * for a missing `max_tokens`, which Anthropic itself requires.
 */
export function decodeAnthropicMessagesRequest(body: unknown, context: DecodeContext): Turn {
  if (!isJsonObject(body)) throw invalidRequest('The request body must be a JSON object.');
  const model = body['model'];
  if (typeof model !== 'string' || model.length === 0) {
    throw invalidRequest('model: Field required (a non-empty string).');
  }
  const maxTokens = body['max_tokens'];
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    throw invalidRequest(
      maxTokens === undefined ? 'max_tokens: Field required.' : 'max_tokens: must be a positive integer.',
    );
  }
  const stream = body['stream'];
  if (stream !== undefined && typeof stream !== 'boolean') throw invalidRequest('stream: must be a boolean.');
  const rawMessages = body['messages'];
  if (!Array.isArray(rawMessages) || rawMessages.length === 0) {
    throw invalidRequest('messages: Field required (a non-empty array).');
  }

  const walk = context.bodyLength === undefined;
  let characters = walk ? 0 : (context.bodyLength ?? 0);
  let hasImages = false;
  const messages: MessageView[] = [];
  const system = body['system'];
  if (system !== undefined) {
    messages.push(decodeSystem(system));
    if (walk) characters += approximateJsonLength(system);
  }
  for (let index = 0; index < rawMessages.length; index++) {
    const message: unknown = rawMessages[index];
    if (!isJsonObject(message)) throw invalidRequest(`messages.${index}: must be an object.`);
    const view = decodeMessage(message, index);
    if (view.hasImage) hasImages = true;
    messages.push(view);
    if (walk) characters += approximateJsonLength(message) + 1;
  }

  const tools = decodeTools(body['tools']);
  if (walk && tools.length > 0) characters += approximateJsonLength(body['tools']);

  return turnOf('anthropic-messages', body, context, { requestedModel: model, stream: stream === true, messages, tools, hasImages, characters });
}

function decodeSystem(system: unknown): MessageView {
  if (typeof system === 'string') return { role: 'system', text: system, toolCallNames: [], hasImage: false };
  if (!Array.isArray(system)) throw invalidRequest('system: must be a string or an array of text blocks.');
  const texts: string[] = [];
  for (let index = 0; index < system.length; index++) {
    const block: unknown = system[index];
    if (!isJsonObject(block) || block['type'] !== 'text' || typeof block['text'] !== 'string') {
      throw invalidRequest(`system.${index}: must be a text block ({"type":"text","text":...}).`);
    }
    texts.push(block['text']);
  }
  return { role: 'system', text: texts.join('\n'), toolCallNames: [], hasImage: false };
}

function decodeMessage(message: JsonObject, index: number): MessageView {
  const role = message['role'];
  // Anthropic takes `system` messages inside `messages` too (Claude Code sends one last); where they may stand
  // is the provider's rule to enforce, not ours.
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    throw invalidRequest(`messages.${index}.role: must be "user", "assistant" or "system" (got ${JSON.stringify(role)}).`);
  }
  const content = message['content'];
  if (typeof content === 'string') return { role, text: content, toolCallNames: [], hasImage: false };
  if (!Array.isArray(content)) {
    throw invalidRequest(`messages.${index}.content: must be a string or an array of content blocks.`);
  }
  const texts: string[] = [];
  const toolCallNames: string[] = [];
  let hasImage = false;
  let toolResults = 0;
  let otherBlocks = 0;
  for (let blockIndex = 0; blockIndex < content.length; blockIndex++) {
    const block: unknown = content[blockIndex];
    if (!isJsonObject(block) || typeof block['type'] !== 'string') {
      throw invalidRequest(`messages.${index}.content.${blockIndex}: must be an object with a string "type".`);
    }
    switch (block['type']) {
      case 'text': {
        const text = block['text'];
        if (typeof text !== 'string') throw invalidRequest(`messages.${index}.content.${blockIndex}.text: Field required.`);
        texts.push(text);
        otherBlocks++;
        break;
      }
      case 'image':
        hasImage = true;
        otherBlocks++;
        break;
      case 'tool_use':
      case 'server_tool_use': {
        const name = block['name'];
        if (typeof name !== 'string') throw invalidRequest(`messages.${index}.content.${blockIndex}.name: Field required.`);
        toolCallNames.push(name);
        break;
      }
      case 'tool_result': {
        toolResults++;
        const resultContent = block['content'];
        if (typeof resultContent === 'string') texts.push(resultContent);
        else if (Array.isArray(resultContent)) {
          for (const part of resultContent) {
            if (!isJsonObject(part)) continue;
            if (part['type'] === 'text' && typeof part['text'] === 'string') texts.push(part['text']);
            else if (part['type'] === 'image') hasImage = true;
          }
        }
        break;
      }
      default:
        otherBlocks++;
    }
  }
  const viewRole = role === 'user' && toolResults > 0 && otherBlocks === 0 ? 'tool' : role;
  return { role: viewRole, text: texts.join('\n'), toolCallNames, hasImage };
}

function decodeTools(rawTools: unknown): ToolView[] {
  if (rawTools === undefined) return [];
  if (!Array.isArray(rawTools)) throw invalidRequest('tools: must be an array.');
  const tools: ToolView[] = new Array(rawTools.length);
  for (let index = 0; index < rawTools.length; index++) {
    const tool: unknown = rawTools[index];
    const name = isJsonObject(tool) ? tool['name'] : undefined;
    if (!isJsonObject(tool) || typeof name !== 'string' || name.length === 0) {
      throw invalidRequest(`tools.${index}.name: Field required (a non-empty string).`);
    }
    const description = tool['description'];
    tools[index] = { name, description: typeof description === 'string' ? description : '', index };
  }
  return tools;
}
