import { isJsonObject, type JsonObject } from '../../core/json.js';
import { usageFromAnthropicBody } from '../anthropic-messages/usage.js';
import { readObjects, readString } from '../json-read.js';
import { anthropicStopReasonToOpenAi } from './anthropic-stop-reason-to-openai.js';
import { usageToOpenAi } from './usage-to-wire.js';

/** A non-streaming Messages response → a `chat.completion`. Thinking becomes `reasoning_content`. */
export function anthropicResponseToOpenAi(body: JsonObject, options: { model: string }): JsonObject {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: JsonObject[] = [];
  for (const block of readObjects(body, 'content')) {
    if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    else if (block['type'] === 'thinking' && typeof block['thinking'] === 'string') reasoning.push(block['thinking']);
    else if (block['type'] === 'tool_use') {
      toolCalls.push({
        id: block['id'],
        type: 'function',
        function: { name: block['name'], arguments: JSON.stringify(isJsonObject(block['input']) ? block['input'] : {}) },
      });
    }
  }
  const message: JsonObject = {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : toolCalls.length > 0 ? null : '',
    refusal: null,
  };
  if (reasoning.length > 0) message['reasoning_content'] = reasoning.join('');
  if (toolCalls.length > 0) message['tool_calls'] = toolCalls;

  const result: JsonObject = {
    id: readString(body, 'id') ?? `chatcmpl-${crypto.randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: anthropicStopReasonToOpenAi(body['stop_reason']) },
    ],
  };
  const usage = usageFromAnthropicBody(body);
  if (usage !== undefined) result['usage'] = usageToOpenAi(usage);
  return result;
}
