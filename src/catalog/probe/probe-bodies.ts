import type { ApiFormat } from '../../core/api-format.js';
import type { JsonObject } from '../../core/json.js';
import { translateRequest } from '../../wire/translate/translation.js';

/** A 1×1 red PNG: the smallest image every vision API accepts. */
export const probePixelBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export type ProbeKind = 'baseline' | 'tools' | 'vision';

/**
 * The cheapest request that exercises one capability, written in chat completions and translated into the
 * provider's own format by the wire layer (Anthropic then gets its required `max_tokens`, 32). Chat bodies leave
 * the limit out because reasoning models reject `max_tokens` (a 400 that would read as "no tools").
 */
export function probeBody(format: ApiFormat, model: string, kind: ProbeKind): JsonObject {
  const base: JsonObject = { model, stream: false };
  let chat: JsonObject;
  if (kind === 'baseline') chat = { ...base, messages: [{ role: 'user', content: 'Reply with the word ok.' }] };
  else if (kind === 'tools') {
    const tool = { type: 'function', function: { name: 'ping', description: 'Answers a ping.', parameters: { type: 'object', properties: {} } } };
    chat = { ...base, messages: [{ role: 'user', content: 'Call the ping tool.' }], tools: [tool] };
  } else {
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${probePixelBase64}` } };
    chat = { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'What colour is this pixel? One word.' }, image] }] };
  }
  const context = { clientBody: chat, requestId: 'probe', receivedAt: 0, model };
  const body = translateRequest(chat, 'openai-chat', format, context, { maxTokensField: 'max_tokens', defaultMaxTokens: 32 });
  return { ...body, model, stream: false };
}
