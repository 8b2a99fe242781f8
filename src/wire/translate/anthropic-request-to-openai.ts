import { isJsonObject, type JsonObject } from '../../core/json.js';
import { readNumber, readObject, readObjects, readString } from '../json-read.js';
import { anthropicBlocksToOpenAiMessage } from './anthropic-blocks-to-openai.js';
import { anthropicSourceToUrl } from './media-source.js';
import { budgetToReasoningEffort } from './reasoning-budget.js';

export interface AnthropicToOpenAiRequestOptions {
  /**
   * Which field carries the output limit. OpenAI's reasoning models reject `max_tokens`; many compatible
   * servers (DeepSeek, older vLLM) only know `max_tokens`. The provider adapter knows which it talks to.
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Whether to map `thinking` to `reasoning_effort` (OpenAI rejects it for non-reasoning models). */
  reasoningEffort?: boolean;
}

/**
 * A Messages request → a chat-completions request. `system` (and any `system` message) becomes the first message; `tool_result` blocks
 * become `tool` messages placed right after the assistant's calls; thinking in the history becomes
 * `reasoning_content`. Fields chat completions has no place for are dropped (see ARCHITECTURE.md).
 */
export function anthropicRequestToOpenAi(body: JsonObject, options: AnthropicToOpenAiRequestOptions = {}): JsonObject {
  const messages: JsonObject[] = [];
  // `system` messages inside `messages` (Claude Code sends one) are folded into the leading system message:
  // many chat-completions servers refuse a system message anywhere but first.
  const systemTexts = [systemToText(body['system'])];
  for (const message of readObjects(body, 'messages')) {
    if (message['role'] === 'user') messages.push(...userMessages(message['content']));
    else if (message['role'] === 'assistant') messages.push(assistantMessage(message['content']));
    else if (message['role'] === 'system') systemTexts.push(systemToText(message['content']));
  }
  const systemText = systemTexts.filter((text) => text !== undefined && text.length > 0).join('\n\n');
  if (systemText.length > 0) messages.unshift({ role: 'system', content: systemText });

  const result: JsonObject = { model: body['model'], messages };
  const maxTokens = readNumber(body, 'max_tokens');
  if (maxTokens !== undefined) result[options.maxTokensField ?? 'max_tokens'] = maxTokens;

  const tools = readObjects(body, 'tools').flatMap(toolToOpenAi);
  if (tools.length > 0) {
    result['tools'] = tools;
    const toolChoice = readObject(body, 'tool_choice');
    if (toolChoice !== undefined) {
      const converted = toolChoiceToOpenAi(toolChoice);
      if (converted !== undefined) result['tool_choice'] = converted;
      if (toolChoice['disable_parallel_tool_use'] === true) result['parallel_tool_calls'] = false;
    }
  }

  const stopSequences = body['stop_sequences'];
  if (Array.isArray(stopSequences) && stopSequences.length > 0) result['stop'] = stopSequences;
  const temperature = readNumber(body, 'temperature');
  if (temperature !== undefined) result['temperature'] = temperature;
  const topP = readNumber(body, 'top_p');
  if (topP !== undefined) result['top_p'] = topP;

  const thinking = readObject(body, 'thinking');
  if (options.reasoningEffort !== false && thinking !== undefined) {
    const budget = readNumber(thinking, 'budget_tokens');
    if (thinking['type'] === 'enabled' && budget !== undefined) result['reasoning_effort'] = budgetToReasoningEffort(budget);
    else if (thinking['type'] === 'adaptive') result['reasoning_effort'] = effortOf(body) ?? 'medium';
  } else if (options.reasoningEffort !== false && effortOf(body) !== undefined) {
    result['reasoning_effort'] = effortOf(body);
  }

  const responseFormat = responseFormatFromOutputFormat(body);
  if (responseFormat !== undefined) result['response_format'] = responseFormat;

  const metadata = readObject(body, 'metadata');
  const userId = metadata === undefined ? undefined : readString(metadata, 'user_id');
  if (userId !== undefined) result['user'] = userId;

  if (body['stream'] === true) {
    result['stream'] = true;
    // The gateway needs the usage of every call; chat completions only streams it when asked.
    result['stream_options'] = { include_usage: true };
  } else if (body['stream'] === false) {
    result['stream'] = false;
  }
  return result;
}

function systemToText(system: unknown): string | undefined {
  if (typeof system === 'string') return system.length > 0 ? system : undefined;
  if (!Array.isArray(system)) return undefined;
  const texts: string[] = [];
  for (const block of system) if (isJsonObject(block) && typeof block['text'] === 'string') texts.push(block['text']);
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

/**
 * One Anthropic user message → `tool` messages for its tool results (first: they must follow the assistant's
 * calls), then one user message for the rest. Images inside tool results cannot ride in a `tool` message, so
 * they move into that user message.
 */
function userMessages(content: unknown): JsonObject[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  if (!Array.isArray(content)) return [];
  const toolMessages: JsonObject[] = [];
  const parts: JsonObject[] = [];
  for (const block of content) {
    if (!isJsonObject(block)) continue;
    if (block['type'] === 'tool_result') {
      const { text, images } = toolResultContent(block['content']);
      toolMessages.push({ role: 'tool', tool_call_id: readString(block, 'tool_use_id') ?? '', content: text });
      parts.push(...images);
    } else {
      const part = userPart(block);
      if (part !== undefined) parts.push(part);
    }
  }
  if (parts.length === 0) return toolMessages;
  const only = parts.length === 1 ? parts[0] : undefined;
  const userContent = only !== undefined && only['type'] === 'text' ? only['text'] : parts;
  return [...toolMessages, { role: 'user', content: userContent }];
}

function userPart(block: JsonObject): JsonObject | undefined {
  const source = readObject(block, 'source');
  switch (block['type']) {
    case 'text':
      return { type: 'text', text: block['text'] };
    case 'image': {
      const url = source === undefined ? undefined : anthropicSourceToUrl(source);
      return url === undefined ? undefined : { type: 'image_url', image_url: { url } };
    }
    case 'document': {
      if (source?.['type'] === 'text') return { type: 'text', text: source['data'] };
      const url = source === undefined ? undefined : anthropicSourceToUrl(source);
      if (url === undefined || !url.startsWith('data:')) return undefined;
      return { type: 'file', file: { file_data: url, filename: readString(block, 'title') ?? 'document.pdf' } };
    }
    default:
      return undefined;
  }
}

function toolResultContent(content: unknown): { text: string; images: JsonObject[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: JsonObject[] = [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isJsonObject(block)) continue;
      if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
      else if (block['type'] === 'image') {
        const part = userPart(block);
        if (part !== undefined) images.push(part);
      }
    }
  }
  return { text: texts.join('\n'), images };
}

function assistantMessage(content: unknown): JsonObject {
  if (typeof content === 'string') return { role: 'assistant', content };
  return anthropicBlocksToOpenAiMessage(Array.isArray(content) ? content : [], { nonObjectInput: 'as-is' });
}

/** Client tools only: Anthropic server tools (web search, code execution…) run at Anthropic and are dropped. */
function toolToOpenAi(tool: JsonObject): JsonObject[] {
  if (tool['type'] !== undefined && tool['type'] !== 'custom') return [];
  const definition: JsonObject = { name: tool['name'] };
  const description = readString(tool, 'description');
  if (description !== undefined) definition['description'] = description;
  definition['parameters'] = readObject(tool, 'input_schema') ?? { type: 'object', properties: {} };
  return [{ type: 'function', function: definition }];
}

function toolChoiceToOpenAi(toolChoice: JsonObject): unknown {
  switch (toolChoice['type']) {
    case 'auto':
      return 'auto';
    case 'none':
      return 'none';
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: toolChoice['name'] } };
    default:
      return undefined;
  }
}

/** `output_config.effort`: Anthropic's effort levels are OpenAI's reasoning efforts by the same names. */
function effortOf(body: JsonObject): string | undefined {
  const outputConfig = readObject(body, 'output_config');
  const effort = outputConfig === undefined ? undefined : readString(outputConfig, 'effort');
  return effort !== undefined && ['low', 'medium', 'high', 'xhigh', 'max'].includes(effort) ? effort : undefined;
}

/** Anthropic structured outputs (`output_format`, or `output_config.format`) → `response_format`. */
function responseFormatFromOutputFormat(body: JsonObject): JsonObject | undefined {
  const outputConfig = readObject(body, 'output_config');
  const format = readObject(body, 'output_format') ?? (outputConfig === undefined ? undefined : readObject(outputConfig, 'format'));
  if (format === undefined || format['type'] !== 'json_schema') return undefined;
  return { type: 'json_schema', json_schema: { name: 'response', schema: format['schema'] ?? {} } };
}
