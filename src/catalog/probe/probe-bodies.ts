import type { ApiFormat } from '../../core/api-format.js';
import type { JsonObject } from '../../core/json.js';

/** A 1×1 red PNG: the smallest image every vision API accepts. */
export const probePixelBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export type ProbeKind = 'baseline' | 'tools' | 'vision';

/**
 * The cheapest request that exercises one capability, in the provider's own format. Anthropic requires
 * `max_tokens`; OpenAI-style bodies leave it out because reasoning models reject `max_tokens` (a 400 that would
 * read as "no tools").
 */
export function probeBody(format: ApiFormat, model: string, kind: ProbeKind): JsonObject {
  const anthropic = format === 'anthropic-messages';
  const base: JsonObject = anthropic ? { model, max_tokens: 32, stream: false } : { model, stream: false };
  if (kind === 'baseline') return { ...base, messages: [{ role: 'user', content: 'Reply with the word ok.' }] };
  if (kind === 'tools') {
    const tool = anthropic
      ? { name: 'ping', description: 'Answers a ping.', input_schema: { type: 'object', properties: {} } }
      : { type: 'function', function: { name: 'ping', description: 'Answers a ping.', parameters: { type: 'object', properties: {} } } };
    return { ...base, messages: [{ role: 'user', content: 'Call the ping tool.' }], tools: [tool] };
  }
  const image = anthropic
    ? { type: 'image', source: { type: 'base64', media_type: 'image/png', data: probePixelBase64 } }
    : { type: 'image_url', image_url: { url: `data:image/png;base64,${probePixelBase64}` } };
  return { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'What colour is this pixel? One word.' }, image] }] };
}
