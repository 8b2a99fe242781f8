import type { JsonObject } from '../core/json.js';
import { isJsonObject } from '../core/json.js';

function hasCacheControl(blocks: unknown): boolean {
  return Array.isArray(blocks) && blocks.some((block) => isJsonObject(block) && block.cache_control !== undefined);
}

/**
 * Whether the client already manages prompt caching: a `cache_control` on any tool, system block or message
 * content block, or an OpenAI `prompt_cache_key`. Such a request is never changed (the client knows its own
 * breakpoints and limits better than we do).
 */
export function clientSetCacheHints(body: JsonObject): boolean {
  if (body.prompt_cache_key !== undefined || body.cache_control !== undefined) return true;
  if (hasCacheControl(body.tools) || hasCacheControl(body.system)) return true;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.some((message) => isJsonObject(message) && (message.cache_control !== undefined || hasCacheControl(message.content)));
}
