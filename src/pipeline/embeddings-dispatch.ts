import type { Logger } from 'pino';
import type { ModelCatalog } from '../catalog/model-catalog.js';
import type { Config } from '../config/schema.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json.js';
import type { Usage } from '../core/usage.js';
import { AttemptLoop } from '../dispatch/attempt-loop.js';
import type { CircuitBreakers } from '../dispatch/circuit-breaker.js';
import type { Cooldowns } from '../dispatch/cooldowns.js';
import type { KeyAuthRests } from '../dispatch/key-auth-rests.js';
import type { KeyPool } from '../dispatch/key-pool.js';
import { EmbeddingsProvider } from '../models/embeddings/embeddings-provider.js';
import type { ModelSwitches } from '../models/switches/model-switches.js';
import { providerKinds } from '../config/provider-kinds.js';
import type { ProviderKindInfo } from '../config/provider-kinds.js';
import type { Provider, ProviderTimeouts } from '../providers/provider.js';
import type { RequestObserver } from './request-observer.js';

/**
 * What the embeddings path needs of the running gateway. `Gateway` has all of it; naming it here keeps the
 * gateway (which builds the semantic cache, which embeds) and this path from importing each other.
 */
export interface EmbeddingsHost {
  readonly config: Config;
  readonly logger: Logger;
  readonly catalog: ModelCatalog;
  readonly switches: ModelSwitches;
  readonly observers: RequestObserver[];
  readonly keyPools: Map<string, KeyPool>;
  readonly breakers: CircuitBreakers;
  readonly cooldowns: Cooldowns;
  readonly authRests: KeyAuthRests;
  timeoutsFor(providerId: string): ProviderTimeouts;
  onClose(hook: () => Promise<void>): void;
  onReload(listener: () => void): void;
}

export interface EmbeddingsDispatch {
  loop: AttemptLoop;
  providers: Map<string, Provider>;
}

const dispatchByHost = new WeakMap<EmbeddingsHost, EmbeddingsDispatch>();

/** One attempt loop per gateway for embeddings, sharing the chat loop's keys, cooldowns and breakers (the semantic cache embeds through it too). */
export function embeddingsDispatch(gateway: EmbeddingsHost): EmbeddingsDispatch {
  const existing = dispatchByHost.get(gateway);
  if (existing) return existing;
  const providers = new Map<string, Provider>();
  for (const provider of gateway.config.providers) {
    const kind: ProviderKindInfo = providerKinds[provider.kind];
    const baseUrl = provider.base_url ?? kind.defaultBaseUrl;
    if (!provider.enabled || kind.adapter !== 'openai-compatible' || baseUrl === undefined) continue;
    providers.set(provider.id, new EmbeddingsProvider(provider.id, baseUrl, provider.headers, gateway.timeoutsFor(provider.id).connectMs));
  }
  const resilience = gateway.config.resilience;
  const loop = new AttemptLoop({
    providers,
    keyPools: gateway.keyPools,
    timeoutsFor: (providerId) => gateway.timeoutsFor(providerId),
    breakers: gateway.breakers,
    cooldowns: gateway.cooldowns,
    authRests: gateway.authRests,
    settings: { maxAttempts: resilience.max_attempts, retryAfterCapMs: resilience.retry_after_cap_ms, cooldownMs: resilience.cooldown_ms },
  });
  const dispatch = { loop, providers };
  dispatchByHost.set(gateway, dispatch);
  const closeProviders = () => Promise.allSettled([...providers.values()].map((provider) => provider.close())).then(() => undefined);
  gateway.onClose(closeProviders);
  // A reloaded config builds the next request's loop from the new providers; this one's pools close after their last response.
  gateway.onReload(() => {
    if (dispatchByHost.get(gateway) !== dispatch) return;
    dispatchByHost.delete(gateway);
    void closeProviders();
  });
  return dispatch;
}

/** `usage.prompt_tokens` of an OpenAI embeddings body; embeddings produce no output tokens. */
export function embeddingUsage(body: JsonObject): Usage | undefined {
  const usage = body.usage;
  if (!isJsonObject(usage) || typeof usage.prompt_tokens !== 'number') return undefined;
  return { inputTokens: usage.prompt_tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}
