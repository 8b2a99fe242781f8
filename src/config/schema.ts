import { z } from 'zod';
import { promptCacheConfigSchema } from './prompt-cache.js';
import { routingConfigSchema } from './routing.js';
import { ledgerConfigSchema } from './ledger.js';
import { insightConfigSchema } from './insight.js';
import { providerKindNames } from './provider-kinds.js';
import { toolRoutingConfigSchema } from './tool-routing.js';
import { cacheConfigSchema } from './cache.js';
import { topicRoutingConfigSchema } from './topic-routing.js';
import { authConfigSchema } from './auth.js';
import { storageConfigSchema } from './storage.js';
import { budgetsConfigSchema } from './budgets.js';
import { fallbackChainSchema } from './fallbacks.js';

const pricesSchema = z
  .object({
    input: z.number().nonnegative().describe('USD per million input tokens'),
    output: z.number().nonnegative().describe('USD per million output tokens'),
    cache_read: z.number().nonnegative().optional(),
    cache_write: z.number().nonnegative().optional(),
  })
  .strict();

/** Per-model request shaping: members added to the body, headers added to the call, members removed. */
const shapingFields = {
  extra_body: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  drop_fields: z.array(z.string().min(1)).optional(),
};

const modelEntrySchema = z.union([
  z.string().min(1),
  z
    .object({
      id: z.string().min(1),
      /** The name sent upstream when it differs from the id clients use. */
      upstream_id: z.string().min(1).optional(),
      context_window: z.number().int().positive().optional(),
      max_output_tokens: z.number().int().positive().optional(),
      supports_tools: z.boolean().optional(),
      supports_vision: z.boolean().optional(),
      supports_reasoning: z.boolean().optional(),
      embeddings: z.boolean().optional(),
      tier: z.number().int().min(1).max(5).optional(),
      prices: pricesSchema.optional(),
      ...shapingFields,
    })
    .strict(),
]);

const timeoutsSchema = z
  .object({
    connect_ms: z.number().int().positive().default(10_000),
    first_byte_ms: z.number().int().positive().default(120_000),
    idle_ms: z.number().int().positive().default(60_000),
  })
  .strict();

const providerSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, dot, dash or underscore (no slash)'),
    kind: z.enum(providerKindNames),
    base_url: z.url().optional(),
    api_key: z.string().min(1).optional(),
    api_keys: z.array(z.string().min(1)).optional(),
    api_key_env: z.string().min(1).optional(),
    key_rotation: z.enum(['round-robin', 'sequential']).default('round-robin'),
    /** The models it serves, or `auto`: whatever its model list (`/v1/models`) says, read at start and on reload. */
    models: z.union([z.literal('auto'), z.array(modelEntrySchema).min(1, 'list at least one model this provider serves, or write `auto`')]),
    headers: z.record(z.string(), z.string()).default({}),
    /** Members added to every body sent to this provider (a model entry's own win), e.g. OpenRouter's `provider` preferences. */
    extra_body: z.record(z.string(), z.unknown()).optional(),
    /** Top-level body members this provider rejects: removed before sending. */
    drop_fields: z.array(z.string().min(1)).optional(),
    timeouts: timeoutsSchema.partial().optional(),
    /** Skip this provider for requests whose estimated prompt is larger than this many tokens. */
    skip_tokens_over: z.number().int().positive().optional(),
    enabled: z.boolean().default(true),
  })
  .strict();

const breakerSchema = z
  .object({
    window_ms: z.number().int().positive().default(60_000),
    min_calls: z.number().int().positive().default(5),
    failure_rate: z.number().gt(0).max(1).default(0.5),
    open_ms: z.number().int().positive().default(30_000),
  })
  .strict();

const resilienceSchema = z
  .object({
    /** Upstream attempts per client request, over all candidates. */
    max_attempts: z.number().int().positive().default(4),
    /** The longest rest after a 429 (its Retry-After, or `cooldown_ms`) the gateway waits out; a failure's rest never is. */
    retry_after_cap_ms: z.number().int().nonnegative().default(2_000),
    /** How long a key+model rests after a 429 without Retry-After, or after a 5xx/timeout/reset. */
    cooldown_ms: z.number().int().positive().default(10_000),
    /**
     * How long a key rests after a 401 (every model) or a 403 (that model); doubles with each failure in a row, up
     * to `auth_rest_max_ms`. After the rest the key is tried again.
     */
    auth_rest_ms: z.number().int().positive().default(60_000),
    auth_rest_max_ms: z.number().int().positive().default(3_600_000),
    breaker: breakerSchema.default(breakerSchema.parse({})),
  })
  .strict();

const serverSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65_535).default(8319),
    body_limit_bytes: z.number().int().positive().default(16 * 1024 * 1024),
    /**
     * The largest upstream answer read into memory (a non-streamed body, or one event of a stream); larger
     * answers are cut off and the client gets a 502 in its format. Streams are relayed event by event, so their
     * total length is not limited.
     */
    upstream_response_limit_bytes: z.number().int().positive().default(16 * 1024 * 1024),
    /** A request body not fully arrived this long after its headers gets 408 and the connection closes. */
    body_timeout_ms: z.number().int().positive().default(30_000),
    /** Headers not complete this long after the connection (or the previous request) opened: 408, closed. */
    headers_timeout_ms: z.number().int().positive().default(66_000),
    /** The whole request (headers and body) on any path; never limits how long a response streams. */
    request_timeout_ms: z.number().int().positive().default(120_000),
    /** Requests of one client address whose body is still arriving; more get 429 (a slow-body flood). */
    max_unfinished_requests_per_client: z.number().int().positive().default(64),
    /** Graceful shutdown: how long in-flight requests may run after SIGTERM. */
    shutdown_grace_ms: z.number().int().nonnegative().default(10_000),
  })
  .strict();

export const configSchema = z
  .object({
    server: serverSchema.default(serverSchema.parse({})),
    providers: z.array(providerSchema).default([]),
    default_model: z.string().min(1).optional(),
    /**
     * Per model (or the router alias): the models to try when it fails, in order. The object form may bound what a
     * failover costs: `max_price: primary` (never dearer than the model asked for), `free_only`, or a number (USD
     * per million tokens, input and output each).
     */
    fallbacks: z.record(z.string(), fallbackChainSchema).default({}),
    timeouts: timeoutsSchema.default(timeoutsSchema.parse({})),
    resilience: resilienceSchema.default(resilienceSchema.parse({})),
    ledger: ledgerConfigSchema.default(ledgerConfigSchema.parse({})),
    /** Where state lives: `{kind: sqlite}` (one instance) or `{kind: cluster, postgres_url, redis_url}`. */
    storage: storageConfigSchema.default({ kind: 'sqlite' }),
    insight: insightConfigSchema.prefault({}),
    tool_routing: toolRoutingConfigSchema.prefault({}),
    prompt_cache: promptCacheConfigSchema.prefault({}),
    cache: cacheConfigSchema.prefault({}),
    topic_routing: topicRoutingConfigSchema.prefault({}),
    auth: authConfigSchema.prefault({}),
    /** Spend and token guards per session, day and month (`src/budgets/`); none by default. */
    budgets: budgetsConfigSchema.prefault({}),
    sessions: z
      .object({
        /** A session untouched this long is forgotten; its next request is treated as resumed. */
        ttl_ms: z.number().int().positive().default(6 * 60 * 60 * 1000),
        max_sessions: z.number().int().positive().default(100_000),
      })
      .strict()
      .prefault({}),
    /** Responses API responses kept for `previous_response_id`, `GET /v1/responses/{id}` and `input_items`. */
    responses: z
      .object({
        ttl_ms: z.number().int().positive().default(24 * 60 * 60 * 1000),
        max_bytes: z.number().int().positive().default(64 * 1024 * 1024),
      })
      .strict()
      .prefault({}),
    routing: routingConfigSchema.default(routingConfigSchema.parse({})),
    logging: z
      .object({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
        /** `auto`: one readable line per event when stderr is a terminal, JSON lines otherwise. */
        format: z.enum(['auto', 'json', 'text']).default('auto'),
      })
      .strict()
      .default({ level: 'info', format: 'auto' }),
  })
  .strict();

export type ConfigInput = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;
export type ProviderConfig = Config['providers'][number];
export type ModelEntry = Exclude<ProviderConfig['models'], 'auto'>[number];
export type TimeoutsConfig = Config['timeouts'];
