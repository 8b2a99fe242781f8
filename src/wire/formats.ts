import type { ApiFormat } from '../core/api-format.js';
import { anthropicMessages } from './anthropic-messages/format.js';
import { openAiChat } from './openai-chat/format.js';
import { openAiResponses } from './openai-responses/format.js';
import type { WireFormat } from './wire-format.js';

/**
 * Every wire format, by name. The names are `core/api-format.ts`'s list (the ledger, config and `Turn` carry
 * them); `satisfies` makes a name without an object here a compile error. Adding a format: its folder under
 * `wire/` with a `format.ts`, one line here, one name there.
 */
export const wireFormats = {
  'openai-chat': openAiChat,
  'anthropic-messages': anthropicMessages,
  'openai-responses': openAiResponses,
} as const satisfies Record<ApiFormat, WireFormat>;

export function wireFormat(name: ApiFormat): WireFormat {
  return wireFormats[name];
}
