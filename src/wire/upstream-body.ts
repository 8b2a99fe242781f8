import type { ApiFormat } from '../core/api-format.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import type { Turn } from '../core/turn.js';
import { inlineConversation } from './openai-responses/continuation.js';
import { inheritRawBody } from './raw-body.js';
import { dropUnsignedThinking } from './translate/drop-unsigned-thinking.js';
import { translateRequest, type TranslationContext } from './translate/translation.js';

/** What the body for one upstream depends on besides the turn. */
export interface UpstreamTarget {
  format: ApiFormat;
  providerId: string;
  upstreamModel: string;
  /** OpenAI's own API wants `max_completion_tokens` (its reasoning models refuse `max_tokens`). */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Messages requires `max_tokens`: this is sent when the client's format had none. */
  defaultMaxTokens: number;
  /** Whether a chat-completions stream reports usage only when asked with `stream_options.include_usage`. */
  supportsStreamOptions: boolean;
}

export interface UpstreamBody {
  body: JsonObject;
  /** The gateway asked for `stream_options.include_usage` although the chat client did not: hide that chunk. */
  addedUsageChunk: boolean;
}

/** Whether a chat-completions body asks its stream for the final usage chunk. */
export function asksForStreamUsage(body: JsonObject): boolean {
  return isJsonObject(body['stream_options']) && body['stream_options']['include_usage'] === true;
}

/**
 * The body one upstream is sent. Same format: a shallow copy of the client's body with the model replaced, so
 * unknown fields reach the provider as the client's own bytes (see `raw-body.ts`), plus what the format needs
 * there: Anthropic refuses thinking blocks without a signature; a Responses request continues a conversation its
 * provider does not hold with the conversation's items in `input` instead of `previous_response_id`. Another
 * format: a translation (`translate/translation.ts`). Then chat-completions details: the output limit under
 * the field the target wants, and `include_usage` on streams. The turn's body is never mutated.
 */
export function upstreamBody(turn: Turn, context: TranslationContext, target: UpstreamTarget): UpstreamBody {
  let body: JsonObject;
  if (target.format === turn.format) {
    body = { ...turn.body, model: target.upstreamModel };
    inheritRawBody(body, turn.body);
    if (target.format === 'anthropic-messages') dropUnsignedThinking(body);
    const continuation = turn.continuation;
    if (target.format === 'openai-responses' && continuation !== undefined && continuation.servedBy !== target.providerId) {
      inlineConversation(body, continuation.items);
    }
  } else {
    body = translateRequest(turn.body, turn.format, target.format, context, { maxTokensField: target.maxTokensField, defaultMaxTokens: target.defaultMaxTokens });
    body['model'] = target.upstreamModel;
  }
  let addedUsageChunk = false;
  if (target.format === 'openai-chat') {
    useOutputLimitField(body, target.maxTokensField);
    if (turn.stream && target.supportsStreamOptions && !asksForStreamUsage(body)) {
      const existing = isJsonObject(body['stream_options']) ? body['stream_options'] : {};
      body['stream_options'] = { ...existing, include_usage: true };
      // A client of another format never sees chat chunks, so only a chat client can be surprised by it.
      addedUsageChunk = turn.format === 'openai-chat';
    }
  }
  return { body, addedUsageChunk };
}

/**
 * OpenAI's reasoning models (o-series, gpt-5) refuse `max_tokens` and its other models take
 * `max_completion_tokens` too, so a provider whose dialect asks for it gets the limit under that name — whether
 * the client wrote `max_tokens` itself, or a translation did (a Responses `max_output_tokens`).
 */
function useOutputLimitField(body: JsonObject, field: UpstreamTarget['maxTokensField']): void {
  if (field !== 'max_completion_tokens' || body['max_tokens'] === undefined) return;
  if (body['max_completion_tokens'] === undefined) body['max_completion_tokens'] = body['max_tokens'];
  delete body['max_tokens'];
}
