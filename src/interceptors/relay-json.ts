import type { ApiFormat } from '../core/api-format.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json.js';
import type { Usage } from '../core/usage.js';
import { usageFromAnthropicBody } from '../wire/anthropic-messages/usage.js';
import { usageFromOpenAiBody } from '../wire/openai-chat/usage.js';
import { anthropicResponseToOpenAi } from '../wire/translate/anthropic-response-to-openai.js';
import { openAiResponseToAnthropic } from '../wire/translate/openai-response-to-anthropic.js';

export interface JsonRelayResult {
  body: JsonObject;
  usage: Usage | undefined;
  responseText: string;
}

function assistantText(body: JsonObject, format: ApiFormat): string {
  if (format === 'openai-chat') {
    const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
    if (isJsonObject(choice) && isJsonObject(choice.message) && typeof choice.message.content === 'string') {
      return choice.message.content;
    }
    return '';
  }
  if (!Array.isArray(body.content)) return '';
  return body.content
    .map((block) => (isJsonObject(block) && typeof block.text === 'string' ? block.text : ''))
    .join('');
}

/** A complete upstream body in the client's format, with the usage the provider reported. */
export function relayJson(body: JsonObject, providerFormat: ApiFormat, clientFormat: ApiFormat, model: string): JsonRelayResult {
  const usage = providerFormat === 'openai-chat' ? usageFromOpenAiBody(body) : usageFromAnthropicBody(body);
  const responseText = assistantText(body, providerFormat);
  if (providerFormat === clientFormat) return { body, usage, responseText };
  const translated =
    providerFormat === 'anthropic-messages'
      ? anthropicResponseToOpenAi(body, { model })
      : openAiResponseToAnthropic(body, { model });
  return { body: translated, usage, responseText };
}
