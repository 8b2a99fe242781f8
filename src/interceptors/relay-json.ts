import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import type { Usage } from '../core/usage.js';
import { wireFormat } from '../wire/formats.js';
import { anthropicResponseToOpenAi } from '../wire/translate/anthropic-response-to-openai.js';
import { openAiResponseToAnthropic } from '../wire/translate/openai-response-to-anthropic.js';

export interface JsonRelayResult {
  body: JsonObject;
  usage: Usage | undefined;
  responseText: string;
}

/** A complete upstream body in the client's format, with the usage the provider reported. */
export function relayJson(body: JsonObject, providerFormat: ApiFormat, clientFormat: ApiFormat, model: string): JsonRelayResult {
  const provider = wireFormat(providerFormat);
  const usage = provider.usageFromBody(body);
  const responseText = provider.responseText(body);
  if (providerFormat === clientFormat) return { body, usage, responseText };
  const translated =
    providerFormat === 'anthropic-messages'
      ? anthropicResponseToOpenAi(body, { model })
      : openAiResponseToAnthropic(body, { model });
  return { body: translated, usage, responseText };
}
