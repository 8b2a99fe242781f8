import type { JsonObject } from '../core/json.js';
import type { PromptCacheDecision } from '../core/route-decision.js';
import { isJsonObject } from '../core/json.js';
import type { PromptCacheTtl } from '../config/prompt-cache.js';

/** Where the optimizer put breakpoints, for the ledger and the response header. */
export type BreakpointPlace = NonNullable<PromptCacheDecision['breakpoints']>[number];

export function cacheControl(ttl: PromptCacheTtl): JsonObject {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

/** Blocks Anthropic refuses a `cache_control` on: thinking blocks and empty text. */
function canCarryMarker(block: unknown): block is JsonObject {
  if (!isJsonObject(block)) return false;
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return !(block.type === 'text' && (typeof block.text !== 'string' || block.text === ''));
}

/** A copy of a content list (a string becomes one text block) with the marker on its last block, or undefined. */
export function markLastBlock(content: unknown, marker: JsonObject): unknown[] | undefined {
  const blocks = typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : Array.isArray(content) ? content : [];
  const last = blocks.at(-1);
  if (!canCarryMarker(last)) return undefined;
  return [...blocks.slice(0, -1), { ...last, cache_control: marker }];
}

/**
 * Every user message's string content as one text block: a marker can only sit on a block, and a message that
 * was marked as a block on one call must be a block on the next too, or the bytes of the cached prefix change.
 */
export function userContentAsBlocks(messages: readonly unknown[]): unknown[] {
  return messages.map((message) =>
    isJsonObject(message) && message.role === 'user' && typeof message.content === 'string' && message.content !== ''
      ? { ...message, content: [{ type: 'text', text: message.content }] }
      : message,
  );
}

/** Indices of the last two user messages (a tool result is a user message in this format), latest first. */
export function lastUserIndices(messages: readonly unknown[]): number[] {
  const found: number[] = [];
  for (let index = messages.length - 1; index >= 0 && found.length < 2; index -= 1) {
    const message = messages[index];
    if (isJsonObject(message) && message.role === 'user') found.push(index);
  }
  return found;
}

/**
 * Puts the marker on the last block of `messages[index]` (replacing that message with a marked copy) and records
 * `place`, unless there is no such message, its last block cannot carry a marker, or `max` places are used.
 */
export function markMessageAt(messages: unknown[], index: number | undefined, place: BreakpointPlace, marker: JsonObject, places: BreakpointPlace[], max: number): void {
  if (index === undefined || index < 0 || places.length >= max) return;
  const message = messages[index];
  if (!isJsonObject(message)) return;
  const content = markLastBlock(message.content, marker);
  if (!content) return;
  messages[index] = { ...message, content };
  places.push(place);
}

/**
 * Anthropic Messages body → the same body with up to `max` cache breakpoints: the end of the tools, the end of the
 * system prompt, the latest user message, and the user message before it (so the previous call's entry is read
 * even when more than 20 blocks came since). The first three are the same bytes on every call of a session with
 * the same tools and system prompt; the message markers move forward, and a marker is not part of what is
 * cached, so each call reads what the previous one wrote (user messages are sent as blocks throughout, so the
 * bytes around a marker do not change when it moves on). Copy on write: the client's objects (and the frozen
 * request_toolset tool) are never edited.
 */
export function addAnthropicBreakpoints(body: JsonObject, ttl: PromptCacheTtl, max: number): { body: JsonObject; places: BreakpointPlace[] } {
  const marker = cacheControl(ttl);
  const places: BreakpointPlace[] = [];
  const result: JsonObject = { ...body };
  const budget = () => places.length < max;
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const lastTool = tools.at(-1);
  if (budget() && isJsonObject(lastTool)) {
    result.tools = [...tools.slice(0, -1), { ...lastTool, cache_control: marker }];
    places.push('tools');
  }
  if (budget() && body.system !== undefined) {
    const system = markLastBlock(body.system, marker);
    if (system) {
      result.system = system;
      places.push('system');
    }
  }
  const messages = userContentAsBlocks(Array.isArray(body.messages) ? body.messages : []);
  const [latest, previous] = lastUserIndices(messages);
  markMessageAt(messages, latest, 'latest_user', marker, places, max);
  markMessageAt(messages, previous, 'previous_user', marker, places, max);
  if (places.includes('latest_user') || places.includes('previous_user')) result.messages = messages;
  return { body: result, places };
}
