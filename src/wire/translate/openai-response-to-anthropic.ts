import { isJsonObject, type JsonObject } from '../../core/json.js';
import { usageFromOpenAiBody } from '../openai-chat/usage.js';
import { parseJsonObject, readObject, readObjects, readString } from '../json-read.js';
import { anthropicMessageId } from './anthropic-message-id.js';
import { anthropicToolId } from './openai-request-to-anthropic.js';
import { openAiFinishReasonToAnthropic } from './openai-finish-reason-to-anthropic.js';
import { usageToAnthropic } from './usage-to-wire.js';
import { emptyUsage } from '../../core/usage.js';

/**
 * A non-streaming `chat.completion` → a Messages response. `reasoning_content` (DeepSeek, xAI…) becomes a
 * thinking block with an empty signature: clients display it, but real Anthropic would reject it if it were
 * sent back, so history bound for Anthropic must drop unsigned thinking (`dropUnsignedThinking`).
 */
export function openAiResponseToAnthropic(body: JsonObject, options: { model: string }): JsonObject {
  const choice = readObjects(body, 'choices')[0];
  const message = choice === undefined ? undefined : readObject(choice, 'message');
  const content: JsonObject[] = [];
  if (message !== undefined) {
    const reasoning = readString(message, 'reasoning_content') ?? readString(message, 'reasoning');
    if (reasoning !== undefined && reasoning.length > 0) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
    const text = messageText(message['content']);
    if (text.length > 0) content.push({ type: 'text', text });
    const refusal = readString(message, 'refusal');
    if (refusal !== undefined && refusal.length > 0) content.push({ type: 'text', text: refusal });
    for (const call of readObjects(message, 'tool_calls')) {
      const called = readObject(call, 'function');
      if (called === undefined) continue;
      content.push({
        type: 'tool_use',
        id: anthropicToolId(readString(call, 'id') ?? ''),
        name: readString(called, 'name') ?? '',
        input: parseJsonObject(readString(called, 'arguments') ?? '') ?? {},
      });
    }
  }
  return {
    id: anthropicMessageId(readString(body, 'id')),
    type: 'message',
    role: 'assistant',
    model: options.model,
    content,
    stop_reason: openAiFinishReasonToAnthropic(choice?.['finish_reason']),
    stop_sequence: null,
    usage: usageToAnthropic(usageFromOpenAiBody(body) ?? emptyUsage()),
  };
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (isJsonObject(part) && typeof part['text'] === 'string') text += part['text'];
  return text;
}
