import type { JsonObject } from '../core/json.js';
import { isJsonObject } from '../core/json.js';
import type { BreakpointPlace } from './anthropic-breakpoints.js';
import { cacheControl, lastUserIndices, markMessageAt, userContentAsBlocks } from './anthropic-breakpoints.js';
import type { PromptCacheTtl } from '../config/prompt-cache.js';

/**
 * An OpenAI chat body bound for an Anthropic model behind an OpenAI-compatible API (OpenRouter): the breakpoints
 * in the form those APIs accept, `cache_control` on a message's content part. The system message's last part and
 * the latest two user messages; tools are not marked (OpenRouter documents breakpoints in message content only).
 */
export function addContentPartBreakpoints(body: JsonObject, ttl: PromptCacheTtl, max: number): { body: JsonObject; places: BreakpointPlace[] } {
  const marker = cacheControl(ttl);
  const places: BreakpointPlace[] = [];
  const messages = userContentAsBlocks(Array.isArray(body.messages) ? body.messages : []);
  let lastSystem = -1;
  messages.forEach((message, index) => {
    if (isJsonObject(message) && (message.role === 'system' || message.role === 'developer')) lastSystem = index;
  });
  markMessageAt(messages, lastSystem, 'system', marker, places, max);
  const [latest, previous] = lastUserIndices(messages);
  markMessageAt(messages, latest, 'latest_user', marker, places, max);
  markMessageAt(messages, previous, 'previous_user', marker, places, max);
  return { body: places.length > 0 ? { ...body, messages } : body, places };
}
