import type { JsonObject } from '../core/json.js';
import { isJsonObject } from '../core/json.js';
import type { BreakpointPlace } from './anthropic-breakpoints.js';
import { cacheControl, lastUserIndices, markLastBlock, userContentAsBlocks } from './anthropic-breakpoints.js';
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
  const mark = (index: number | undefined, place: BreakpointPlace) => {
    if (index === undefined || index < 0 || places.length >= max) return;
    const message = messages[index];
    if (!isJsonObject(message)) return;
    const content = markLastBlock(message.content, marker);
    if (!content) return;
    messages[index] = { ...message, content };
    places.push(place);
  };
  let lastSystem = -1;
  messages.forEach((message, index) => {
    if (isJsonObject(message) && (message.role === 'system' || message.role === 'developer')) lastSystem = index;
  });
  mark(lastSystem, 'system');
  const [latest, previous] = lastUserIndices(messages);
  mark(latest, 'latest_user');
  mark(previous, 'previous_user');
  return { body: places.length > 0 ? { ...body, messages } : body, places };
}
