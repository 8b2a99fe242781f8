import { isJsonObject, type JsonObject } from '../../core/json.js';
import { parseJsonObject, readNumber, readObject, readObjects, readString } from '../json-read.js';
import { urlToAnthropicSource } from './media-source.js';
import { minimumThinkingBudget, reasoningEffortToBudget } from './reasoning-budget.js';

export interface OpenAiToAnthropicRequestOptions {
  /** Anthropic requires `max_tokens`; used when the OpenAI body sets neither limit. */
  defaultMaxTokens?: number;
  /**
   * Send `temperature`/`top_p`/`top_k`. Off by default: the current Messages API (SDK 1.14 types) no longer has
   * them and rejects unknown fields; turn on for Anthropic-compatible hosts and older models that take them.
   */
  samplingParameters?: boolean;
  /**
   * Send bare `reasoning_content` back as thinking blocks with an empty signature. Off by default: real
   * Anthropic rejects them; some Anthropic-compatible hosts (DeepSeek-style thinking with tools) want them.
   */
  keepUnsignedThinking?: boolean;
}

export const defaultAnthropicMaxTokens = 4096;

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: JsonObject[];
}

/**
 * A chat-completions request → a Messages request. Builds a new body from the fields Anthropic understands
 * and drops the rest (see ARCHITECTURE.md for the list): Anthropic rejects unknown fields. System and
 * developer messages, wherever they stand, are hoisted into `system`. Tool results become `tool_result` blocks
 * of one user message, as Anthropic demands every `tool_use` be answered in the very next user message.
 */
export function openAiRequestToAnthropic(body: JsonObject, options: OpenAiToAnthropicRequestOptions = {}): JsonObject {
  const systemBlocks: JsonObject[] = [];
  const messages: AnthropicMessage[] = [];
  for (const message of readObjects(body, 'messages')) {
    switch (message['role']) {
      case 'system':
      case 'developer':
        systemBlocks.push(...textBlocks(message['content']));
        break;
      case 'user':
        appendMessage(messages, 'user', userBlocks(message['content']));
        break;
      case 'assistant':
        appendMessage(messages, 'assistant', assistantBlocks(message, options.keepUnsignedThinking === true));
        break;
      case 'tool':
        appendMessage(messages, 'user', [toolResultBlock(message)]);
        break;
    }
  }
  const formatInstruction = responseFormatInstruction(body['response_format']);
  if (formatInstruction !== undefined) systemBlocks.push({ type: 'text', text: formatInstruction });

  const maxTokens =
    readNumber(body, 'max_completion_tokens') ??
    readNumber(body, 'max_tokens') ??
    options.defaultMaxTokens ??
    defaultAnthropicMaxTokens;
  const result: JsonObject = { model: body['model'], max_tokens: maxTokens };
  if (systemBlocks.length > 0) {
    result['system'] = systemBlocks.every((block) => !('cache_control' in block))
      ? systemBlocks.map((block) => block['text']).join('\n\n')
      : systemBlocks;
  }
  result['messages'] = messages.map(simplifyContent);

  const tools = readObjects(body, 'tools').flatMap(toolToAnthropic);
  let forcedTool = false;
  if (tools.length > 0) {
    result['tools'] = tools;
    let toolChoice = toolChoiceToAnthropic(body['tool_choice']);
    if (body['parallel_tool_calls'] === false && toolChoice?.['type'] !== 'none') {
      toolChoice = { ...(toolChoice ?? { type: 'auto' }), disable_parallel_tool_use: true };
    }
    if (toolChoice !== undefined) result['tool_choice'] = toolChoice;
    forcedTool = toolChoice?.['type'] === 'any' || toolChoice?.['type'] === 'tool';
  }

  const stop = body['stop'];
  const stopSequences = typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop.filter((item) => typeof item === 'string') : [];
  if (stopSequences.length > 0) result['stop_sequences'] = stopSequences;

  // Anthropic refuses thinking together with a forced tool or changed sampling settings, so thinking yields to
  // a forced tool (a hard requirement of the caller) and sampling settings yield to thinking.
  const thinkingBudget = forcedTool ? undefined : requestedThinkingBudget(body, maxTokens);
  if (thinkingBudget !== undefined) {
    result['thinking'] = { type: 'enabled', budget_tokens: thinkingBudget };
  } else if (options.samplingParameters === true) {
    const temperature = readNumber(body, 'temperature');
    // OpenAI's range is 0–2, Anthropic's 0–1.
    if (temperature !== undefined) result['temperature'] = Math.min(1, Math.max(0, temperature));
    const topP = readNumber(body, 'top_p');
    if (topP !== undefined) result['top_p'] = topP;
    const topK = readNumber(body, 'top_k');
    if (topK !== undefined) result['top_k'] = topK;
  }

  const user = readString(body, 'user') ?? readString(body, 'safety_identifier');
  if (user !== undefined) result['metadata'] = { user_id: user };
  if (typeof body['stream'] === 'boolean') result['stream'] = body['stream'];
  return result;
}

function requestedThinkingBudget(body: JsonObject, maxTokens: number): number | undefined {
  const reasoning = readObject(body, 'reasoning');
  const requested =
    reasoningEffortToBudget(body['reasoning_effort']) ??
    (reasoning === undefined
      ? undefined
      : (readNumber(reasoning, 'max_tokens') ?? reasoningEffortToBudget(reasoning['effort'])));
  if (requested === undefined) return undefined;
  const budget = Math.min(requested, maxTokens - 1);
  return budget >= minimumThinkingBudget ? budget : undefined;
}

/** Adds blocks to the conversation, merging into the previous message when the role repeats. */
function appendMessage(messages: AnthropicMessage[], role: 'user' | 'assistant', content: JsonObject[]): void {
  if (content.length === 0) return;
  const previous = messages.at(-1);
  if (previous !== undefined && previous.role === role) previous.content.push(...content);
  else messages.push({ role, content });
}

/** A message whose only content is one plain text block is sent as a string, as clients usually write it. */
function simplifyContent(message: AnthropicMessage): JsonObject {
  const only = message.content.length === 1 ? message.content[0] : undefined;
  if (only !== undefined && only['type'] === 'text' && Object.keys(only).length === 2) {
    return { role: message.role, content: only['text'] };
  }
  return { role: message.role, content: message.content };
}

/** Text blocks of a string or text-part content; Anthropic rejects empty text blocks, so they are skipped. */
function textBlocks(content: unknown): JsonObject[] {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  const blocks: JsonObject[] = [];
  if (!Array.isArray(content)) return blocks;
  for (const part of content) {
    if (!isJsonObject(part)) continue;
    const text = part['type'] === 'refusal' ? part['refusal'] : part['text'];
    if ((part['type'] === 'text' || part['type'] === 'refusal') && typeof text === 'string' && text.length > 0) {
      blocks.push(withCacheControl({ type: 'text', text }, part));
    }
  }
  return blocks;
}

/** Anthropic-aware OpenAI clients mark parts with `cache_control`; it means the same thing on the block. */
function withCacheControl(block: JsonObject, part: JsonObject): JsonObject {
  const cacheControl = part['cache_control'];
  return isJsonObject(cacheControl) ? { ...block, cache_control: cacheControl } : block;
}

function userBlocks(content: unknown): JsonObject[] {
  if (!Array.isArray(content)) return textBlocks(content);
  const blocks: JsonObject[] = [];
  for (const part of content) {
    if (!isJsonObject(part)) continue;
    if (part['type'] === 'text') blocks.push(...textBlocks([part]));
    else if (part['type'] === 'image_url') {
      const imageUrl = part['image_url'];
      const url = isJsonObject(imageUrl) ? readString(imageUrl, 'url') : typeof imageUrl === 'string' ? imageUrl : undefined;
      const source = url === undefined ? undefined : urlToAnthropicSource(url);
      if (source !== undefined) blocks.push(withCacheControl({ type: 'image', source }, part));
    } else if (part['type'] === 'file') {
      const file = readObject(part, 'file');
      const fileData = file === undefined ? undefined : readString(file, 'file_data');
      const source = fileData === undefined ? undefined : urlToAnthropicSource(fileData);
      if (source !== undefined) blocks.push({ type: 'document', source });
    }
    // input_audio has no Anthropic equivalent and is dropped.
  }
  return blocks;
}

function assistantBlocks(message: JsonObject, keepUnsignedThinking: boolean): JsonObject[] {
  const blocks: JsonObject[] = [];
  const reasoning = readString(message, 'reasoning_content');
  // Anthropic only takes back thinking it signed. A client that kept the signed blocks (LiteLLM's
  // `thinking_blocks`) gets them replayed; bare `reasoning_content` has no signature and is dropped.
  for (const thinking of readObjects(message, 'thinking_blocks')) {
    if (thinking['type'] === 'thinking' && typeof thinking['signature'] === 'string' && thinking['signature'] !== '') {
      blocks.push({ type: 'thinking', thinking: thinking['thinking'], signature: thinking['signature'] });
    } else if (thinking['type'] === 'redacted_thinking' && typeof thinking['data'] === 'string') {
      blocks.push({ type: 'redacted_thinking', data: thinking['data'] });
    }
  }
  if (blocks.length === 0 && keepUnsignedThinking && reasoning !== undefined && reasoning.length > 0) {
    blocks.push({ type: 'thinking', thinking: reasoning, signature: '' });
  }
  blocks.push(...textBlocks(message['content']));
  for (const call of readObjects(message, 'tool_calls')) {
    const called = readObject(call, 'function');
    if (called === undefined) continue;
    const argumentsText = readString(called, 'arguments') ?? '';
    blocks.push({
      type: 'tool_use',
      id: anthropicToolId(readString(call, 'id') ?? ''),
      name: readString(called, 'name') ?? '',
      // Invalid or non-object arguments cannot be an Anthropic `input`; the call is kept with an empty input.
      input: parseJsonObject(argumentsText) ?? {},
    });
  }
  return blocks;
}

function toolResultBlock(message: JsonObject): JsonObject {
  const block: JsonObject = { type: 'tool_result', tool_use_id: anthropicToolId(readString(message, 'tool_call_id') ?? '') };
  const content = message['content'];
  if (typeof content === 'string') {
    if (content.length > 0) block['content'] = content;
  } else {
    const blocks = textBlocks(content);
    if (blocks.length > 0) block['content'] = blocks;
  }
  return block;
}

/** Anthropic tool ids must match ^[a-zA-Z0-9_-]+$; some OpenAI-compatible vendors use dots and colons. */
export function anthropicToolId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : 'toolu_missing';
}

function toolToAnthropic(tool: JsonObject): JsonObject[] {
  const definition = readObject(tool, 'function');
  if (definition === undefined || (tool['type'] !== undefined && tool['type'] !== 'function')) return [];
  const converted: JsonObject = { name: definition['name'] };
  const description = readString(definition, 'description');
  if (description !== undefined) converted['description'] = description;
  converted['input_schema'] = readObject(definition, 'parameters') ?? { type: 'object', properties: {} };
  return [converted];
}

function toolChoiceToAnthropic(toolChoice: unknown): JsonObject | undefined {
  if (toolChoice === 'auto') return { type: 'auto' };
  if (toolChoice === 'none') return { type: 'none' };
  if (toolChoice === 'required') return { type: 'any' };
  if (isJsonObject(toolChoice)) {
    const called = readObject(toolChoice, 'function');
    const name = called === undefined ? undefined : readString(called, 'name');
    if (name !== undefined) return { type: 'tool', name };
  }
  return undefined;
}

/**
 * Anthropic's Messages API has no `response_format`; the nearest faithful thing without a beta header is an
 * instruction in the system prompt. Best effort: the model is asked, not constrained.
 */
function responseFormatInstruction(responseFormat: unknown): string | undefined {
  if (!isJsonObject(responseFormat)) return undefined;
  if (responseFormat['type'] === 'json_object') return 'Respond with a single valid JSON object and nothing else.';
  if (responseFormat['type'] !== 'json_schema') return undefined;
  const jsonSchema = readObject(responseFormat, 'json_schema');
  const schema = jsonSchema === undefined ? undefined : jsonSchema['schema'];
  return (
    'Respond with a single valid JSON value and nothing else. It must conform to this JSON Schema:\n' +
    JSON.stringify(schema ?? {})
  );
}
