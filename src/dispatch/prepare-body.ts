import type { Deployment } from '../catalog/deployment.js';
import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import type { Turn } from '../core/turn.js';
import type { Provider } from '../providers/provider.js';
import { defaultAnthropicMaxTokens } from '../wire/translate/openai-request-to-anthropic.js';
import type { TranslationContext } from '../wire/translate/translation.js';
import { asksForStreamUsage, upstreamBody } from '../wire/upstream-body.js';

export interface PreparedBodyFacts {
  /** The gateway asked for `stream_options.include_usage` although the client did not: hide that chunk. */
  addedUsageChunk: boolean;
}

/** Whether the client itself asked an OpenAI stream for the final usage chunk. */
export function clientAskedForUsage(body: JsonObject): boolean {
  return asksForStreamUsage(body);
}

/** What a provider kind's API accepts beyond its format (from `config/provider-kinds.ts`). */
export interface UpstreamDialect {
  supportsStreamOptions: boolean;
  /** OpenAI's own API rejects `max_tokens` for reasoning models; most compatible servers only know it. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Members other provider kinds own (OpenRouter's `provider`, `transforms`, `route`): never sent here. */
  foreignFields?: readonly string[];
}

/**
 * The upstream body for one deployment, in `format` (the client's own when the provider speaks it, else the
 * provider's): the wire layer builds it (`wire/upstream-body.ts`), then the deployment's configured shaping is
 * applied. The client's body object is never mutated, so each attempt starts from the original.
 */
export function prepareUpstreamBody(
  turn: Turn,
  context: TranslationContext,
  format: ApiFormat,
  deployment: Deployment,
  provider: Provider,
  dialect: UpstreamDialect,
  facts: PreparedBodyFacts,
): JsonObject {
  const prepared = upstreamBody(turn, context, {
    format,
    providerId: provider.id,
    upstreamModel: deployment.upstreamModel,
    maxTokensField: dialect.maxTokensField,
    defaultMaxTokens: deployment.maxOutputTokens ?? defaultAnthropicMaxTokens,
    supportsStreamOptions: dialect.supportsStreamOptions,
  });
  const body = prepared.body;
  // A translation into Messages takes the client's limit or the default; neither may pass the model's own.
  if (format !== turn.format && deployment.maxOutputTokens !== undefined && typeof body.max_tokens === 'number' && body.max_tokens > deployment.maxOutputTokens) {
    body.max_tokens = deployment.maxOutputTokens;
  }
  shapeBody(body, deployment, dialect);
  facts.addedUsageChunk = prepared.addedUsageChunk;
  return body;
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
