import type { Deployment } from '../catalog/deployment.js';
import type { JsonObject } from '../core/json.js';
import { isJsonObject } from '../core/json.js';
import type { Turn } from '../core/turn.js';
import type { Provider } from '../providers/provider.js';
import { anthropicRequestToOpenAi } from '../wire/translate/anthropic-request-to-openai.js';
import { inheritRawBody } from '../wire/raw-body.js';
import { dropUnsignedThinking } from '../wire/translate/drop-unsigned-thinking.js';
import { defaultAnthropicMaxTokens, openAiRequestToAnthropic } from '../wire/translate/openai-request-to-anthropic.js';

export interface PreparedBodyFacts {
  /** The gateway asked for `stream_options.include_usage` although the client did not: hide that chunk. */
  addedUsageChunk: boolean;
}

/** Whether the client itself asked an OpenAI stream for the final usage chunk. */
export function clientAskedForUsage(body: JsonObject): boolean {
  return isJsonObject(body.stream_options) && body.stream_options.include_usage === true;
}

/**
 * The upstream body for one deployment. Same format: a shallow copy of the client's body with only the model
 * replaced (and include_usage added to OpenAI streams), so unknown fields survive byte for byte. Other format:
 * a translation. The client's body object is never mutated, so each attempt starts from the original.
 */
export interface UpstreamDialect {
  supportsStreamOptions: boolean;
  /** OpenAI's own API rejects `max_tokens` for reasoning models; most compatible servers only know it. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Members other provider kinds own (OpenRouter's `provider`, `transforms`, `route`): never sent here. */
  foreignFields?: readonly string[];
}

export function prepareUpstreamBody(
  turn: Turn,
  deployment: Deployment,
  provider: Provider,
  dialect: UpstreamDialect,
  facts: PreparedBodyFacts,
): JsonObject {
  let body: JsonObject;
  if (provider.format === turn.format) {
    body = { ...turn.body, model: deployment.upstreamModel };
    // Members the gateway did not replace go upstream as the client's own bytes (see serializeJsonBody).
    inheritRawBody(body, turn.body);
    // Thinking blocks without a signature (translated from another provider's reasoning) are rejected by
    // Anthropic; this only touches assistant messages that hold such blocks.
    if (provider.format === 'anthropic-messages') dropUnsignedThinking(body);
  } else if (provider.format === 'anthropic-messages') {
    body = openAiRequestToAnthropic(turn.body, { defaultMaxTokens: deployment.maxOutputTokens ?? defaultAnthropicMaxTokens });
    body.model = deployment.upstreamModel;
    if (deployment.maxOutputTokens !== undefined && typeof body.max_tokens === 'number' && body.max_tokens > deployment.maxOutputTokens) {
      body.max_tokens = deployment.maxOutputTokens;
    }
  } else {
    body = anthropicRequestToOpenAi(turn.body, { maxTokensField: dialect.maxTokensField });
    body.model = deployment.upstreamModel;
  }
  if (provider.format === 'openai-chat') useOutputLimitField(body, dialect.maxTokensField);
  shapeBody(body, deployment, dialect);
  facts.addedUsageChunk = false;
  if (provider.format === 'openai-chat' && turn.stream && dialect.supportsStreamOptions) {
    if (!clientAskedForUsage(body)) {
      const existing = isJsonObject(body.stream_options) ? body.stream_options : {};
      body.stream_options = { ...existing, include_usage: true };
      // A client in the other format never sees OpenAI chunks, so only an OpenAI client can be surprised by it.
      facts.addedUsageChunk = turn.format === 'openai-chat';
    }
  }
  return body;
}

/**
 * OpenAI's reasoning models (o-series, gpt-5) refuse `max_tokens` and its other models take
 * `max_completion_tokens` too, so a provider whose dialect asks for it gets the limit under that name — whether
 * the client wrote `max_tokens` itself, or a translation did (a Responses `max_output_tokens`).
 */
function useOutputLimitField(body: JsonObject, field: UpstreamDialect['maxTokensField']): void {
  if (field !== 'max_completion_tokens' || body.max_tokens === undefined) return;
  if (body.max_completion_tokens === undefined) body.max_completion_tokens = body.max_tokens;
  delete body.max_tokens;
}

/**
 * The configured shaping of one deployment, applied to its own copy of the body: members other provider kinds
 * own and the entry's `drop_fields` are removed, then its `extra_body` members are set (replacing the client's).
 */
function shapeBody(body: JsonObject, deployment: Deployment, dialect: UpstreamDialect): void {
  for (const field of dialect.foreignFields ?? []) delete body[field];
  const shaping = deployment.shaping;
  if (!shaping) return;
  for (const field of shaping.dropFields ?? []) delete body[field];
  for (const [field, value] of Object.entries(shaping.extraBody ?? {})) body[field] = value as JsonObject[string];
}
