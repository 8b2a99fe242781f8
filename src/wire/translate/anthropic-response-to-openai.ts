import type { JsonObject } from '../../core/json.js';
import { usageFromAnthropicBody } from '../anthropic-messages/usage.js';
import { readObjects, readString } from '../json-read.js';
import { anthropicBlocksToOpenAiMessage } from './anthropic-blocks-to-openai.js';
import { anthropicStopReasonToOpenAi } from './anthropic-stop-reason-to-openai.js';
import { usageToOpenAi } from './usage-to-wire.js';

/** A non-streaming Messages response → a `chat.completion`. Thinking becomes `reasoning_content`. */
export function anthropicResponseToOpenAi(body: JsonObject, options: { model: string }): JsonObject {
  const message = anthropicBlocksToOpenAiMessage(readObjects(body, 'content'), { refusal: true, nonObjectInput: 'empty' });

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
