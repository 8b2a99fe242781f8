import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import type { Usage } from '../core/usage.js';
import { wireFormat } from '../wire/formats.js';
import { translateResponseBody, type TranslationContext } from '../wire/translate/translation.js';

export interface JsonRelayResult {
  body: JsonObject;
  usage: Usage | undefined;
  responseText: string;
}

/** A complete upstream body in the client's format, with the usage the provider reported. */
export function relayJson(body: JsonObject, providerFormat: ApiFormat, clientFormat: ApiFormat, translation: TranslationContext): JsonRelayResult {
  const provider = wireFormat(providerFormat);
  return {
    body: translateResponseBody(body, providerFormat, clientFormat, translation),
    usage: provider.usageFromBody(body),
    responseText: provider.responseText(body),
  };
}
