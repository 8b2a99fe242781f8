import { KeyAuthRests } from '../dispatch/key-auth-rests.js';
import type { AuthRestEvent } from '../dispatch/key-auth-rests.js';
import type { Logger } from 'pino';
import { InFlightRequests } from './in-flight-requests.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { probeFilePath, readProbeResults } from '../store/probes/probe-results.js';
import type { ProbeFile } from '../store/probes/probe-results.js';
import { ConfigError } from '../config/config-error.js';
import { GatewayError } from '../core/errors.js';
import { expandAutoModels } from './auto-models.js';
import { loadLearnedDifficulty } from '../models/difficulty/load-learned.js';
import { ModelRouter } from '../models/model-router.js';
import { ModelSwitches } from '../models/switches/model-switches.js';
import { FilePolicyStore, policyFilePath } from '../store/policy/file-policy-store.js';
import type { Config } from '../config/schema.js';
import { AttemptLoop } from '../dispatch/attempt-loop.js';
import { CircuitBreakers } from '../dispatch/circuit-breaker.js';
import type { BreakerState } from '../dispatch/circuit-breaker.js';
import { Cooldowns } from '../dispatch/cooldowns.js';
import { KeyPool } from '../dispatch/key-pool.js';
import { foreignFields, providerKinds } from '../config/provider-kinds.js';
import type { ProviderKindInfo } from '../config/provider-kinds.js';
import type { Provider, ProviderTimeouts } from '../providers/provider.js';
import { createProvider } from '../providers/registry.js';
import type { RequestObserver } from './request-observer.js';
import type { UpstreamDialect } from '../dispatch/prepare-body.js';
import { MemorySessionStore } from '../store/memory/memory-session-store.js';
import { SessionRecords } from '../session/session-records.js';
import { RecordSessionAffinity } from '../models/affinity/record-affinity.js';
import { RecordTopicSessions } from '../models/topic/record-topic-sessions.js';
import { installTopicRouter } from '../models/topic/install-topic-router.js';
import { ContextNudge } from '../insight/context-nudge.js';
import { ResponseCache } from '../cache/response-cache.js';
import type { PricingOptions } from '../catalog/prices/price-usage.js';
import { deploymentPriceOverrides, deploymentUpstreamModels } from '../catalog/prices/deployment-prices.js';
import { priceUsage } from '../catalog/prices/price-usage.js';
import { priceRecord } from '../ledger/price-record.js';
import { RequestLog } from './request-log.js';
import { SideRequestSessions } from '../session/side-request-sessions.js';
import { BudgetGuard } from '../budgets/budget-guard.js';
import { MemoryCacheStore } from '../store/memory/memory-cache-store.js';
import { MemoryResponseStore } from '../store/memory/memory-response-store.js';
import type { ResponseStore } from '../store/response-store.js';
import { SemanticCache } from '../cache/semantic/semantic-cache.js';
import { embedForSemanticCache } from './embed-for-cache.js';
import { MemorySemanticCacheStore } from '../store/memory/memory-semantic-cache-store.js';
import type { ToolRoutingMode } from '../tools/config.js';
import type { GatewayStores } from './stores/gateway-stores.js';
import { followRouterMode, startingRouterMode } from '../tools/router-mode-policy.js';

export interface GatewayOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  dataDir: string;
  observers?: RequestObserver[];
  /** Shared state (cluster storage) instead of the in-process defaults. */
  stores?: GatewayStores;
  /** Re-reads and validates the config (from the file it came from), for SIGHUP and `POST /v1/config/reload`. */
  configSource?: () => Config;
  /** The clock the key rests after a 401/403 read (`Date.now` when absent): tests step it instead of waiting. */
  authRestClock?: () => number;
}

/**
 * The running gateway's state, built from the config: providers with their connection pools and keys, the
 * catalog, and the resilience state the attempt loop shares across requests. `reload` rebuilds what the config
 * describes and keeps the state (sessions, switches, breakers, caches, counters).
 */
export class Gateway {
  /** The running config; `reload` replaces it (and what is built from it) for the next request. */
  config: Config;
  readonly logger: Logger;
  readonly dataDir: string;
  catalog: ModelCatalog;
  readonly env: NodeJS.ProcessEnv;
  /** Live on/off switches per (provider, model), persisted in model-policy.json. */
  readonly switches: ModelSwitches;
  readonly modelRouter: ModelRouter;
  providers = new Map<string, Provider>();
  keyPools = new Map<string, KeyPool>();
  readonly breakers: CircuitBreakers;
  readonly cooldowns: Cooldowns;
  /** Keys resting after a 401/403 (`dispatch/key-auth-rests.ts`); `liftAuthRests` ends them all. */
  readonly authRests: KeyAuthRests;
  attemptLoop: AttemptLoop;
  readonly observers: RequestObserver[];
  /** Side requests (an agent's title generation) matched to the session they are about. */
  readonly sideRequests = new SideRequestSessions();
  /** Chat and embeddings requests not finished yet (their ledger rows included); shutdown waits for them. */
  readonly inFlight = new InFlightRequests();
  /**
   * One record per session (tool surface, affinity, topic inertia, nudge and prompt-cache state), opened once
   * per request and saved once when it ends.
   */
  readonly sessions: SessionRecords;
  /** How the ledger prices usage, for figures the gateway reports itself (what a cache hit saved). */
  pricing: PricingOptions;
  /** The exact response cache (off unless `cache.enabled`). */
  readonly responseCache: ResponseCache;
  /** The semantic response cache (off unless `cache.semantic.enabled`): paraphrases served from the exact cache's answers. */
  readonly semanticCache: SemanticCache;
  /** Stored Responses API responses (`previous_response_id`), per application key, with a TTL. */
  readonly responses: ResponseStore;
  /** The context nudge (off unless `insight.nudge` enables it): watches prompt fill, adds a note when high. */
  readonly contextNudge: ContextNudge;
  /** `budgets:`: soft warnings and hard 429s per session, day and month (inactive when none is configured). */
  readonly budgets: BudgetGuard;
  /** Tool routing mode, switchable at run time (admin API, `hermes-router router on|off|shadow`). */
  toolRoutingMode: ToolRoutingMode;
  private timeouts = new Map<string, ProviderTimeouts>();
  private dialects = new Map<string, UpstreamDialect>();
  /** `provider/model` → upstream name, for pricing finished requests as the ledger does. */
  private upstreamModels: Record<string, string> = {};
  private readonly probeSource: { current(): ProbeFile } | undefined;
  private readonly reloadListeners: ((config: Config) => void)[] = [];
  /** Re-reads the config from where it came from (the file `start` loaded); absent for an inline config. */
  private readonly configSource: (() => Config) | undefined;
  private readonly closeHooks: (() => Promise<void>)[] = [];
  private readonly breakerListeners: ((key: string, state: BreakerState) => void)[] = [];
  private readonly authRestListeners: ((event: AuthRestEvent) => void)[] = [];
  private readonly healthCheckList: { name: string; check: () => string | undefined }[] = [];
  private readonly admissionCheckList: (() => string | undefined)[] = [];

  constructor(options: GatewayOptions) {
    this.config = options.config;
    this.logger = options.logger;
    this.dataDir = options.dataDir;
    this.observers = [...(options.observers ?? [])];
    this.env = options.env;
    this.sessions = new SessionRecords(
      options.stores?.sessions ?? new MemorySessionStore({ ttlMs: options.config.sessions.ttl_ms, maxSessions: options.config.sessions.max_sessions }),
    );
    this.cooldowns = options.stores?.cooldowns ?? new Cooldowns();
    const sharedProbes = options.stores?.probes;
    this.probeSource = sharedProbes;
    this.configSource = options.configSource;
    this.catalog = this.buildCatalog(options.config);
    // A cluster's probe results come from Postgres and change while running (a `models probe` run elsewhere).
    if (sharedProbes) {
      const stopFollowing = sharedProbes.onChange((probes) => {
        this.catalog.updateProbes(probes);
        this.logger.info({ models: Object.keys(probes.probes).length }, 'probe results changed; model capabilities updated');
      });
      this.closeHooks.push(async () => stopFollowing());
    }
    const injectedPolicy = options.stores?.policy;
    if (injectedPolicy) {
      this.switches = new ModelSwitches(injectedPolicy.store, injectedPolicy.initial);
    } else {
      const policyStore = new FilePolicyStore(policyFilePath(options.dataDir, options.env));
      this.switches = new ModelSwitches(policyStore, policyStore.loadSync());
    }
    // The mode is part of the policy: a save here or on another instance (announced or resynced) applies it.
    this.toolRoutingMode = startingRouterMode(this.switches, options.dataDir, options.config.tool_routing.mode);
    followRouterMode(this.switches, (mode) => {
      this.toolRoutingMode = mode;
      this.logger.info({ mode, revision: this.switches.revision }, 'tool routing mode changed');
    });
    const upstream = buildUpstreams(options.config, options.env);
    this.providers = upstream.providers;
    this.keyPools = upstream.keyPools;
    this.timeouts = upstream.timeouts;
    this.dialects = upstream.dialects;
    const breaker = options.config.resilience.breaker;
    const breakerSettings = { windowMs: breaker.window_ms, minCalls: breaker.min_calls, failureRate: breaker.failure_rate, openMs: breaker.open_ms };
    const onBreakerChange = (key: string, state: BreakerState): void => {
      this.logger.warn({ deployment: key, state }, 'circuit breaker changed state');
      for (const listener of this.breakerListeners) listener(key, state);
    };
    this.breakers =
      options.stores?.createBreakers?.(breakerSettings, onBreakerChange) ??
      new CircuitBreakers(breakerSettings, Date.now, onBreakerChange);
    this.modelRouter = new ModelRouter({
      catalog: this.catalog,
      config: options.config.routing,
      switches: this.switches,
      health: (deployment) => ({ closed: 0, 'half-open': 1, open: 2 })[this.breakers.state(deployment.qualifiedName)],
      affinity: new RecordSessionAffinity(this.sessions, () => this.config.routing.affinity.ttl_ms),
    });
    installTopicRouter(this.modelRouter, options.config.topic_routing, options.dataDir, this.logger, new RecordTopicSessions(this.sessions));
    this.pricing = pricingOf(options.config, this.catalog);
    this.upstreamModels = deploymentUpstreamModels(this.catalog.deployments);
    this.budgets = new BudgetGuard({
      config: options.config.budgets,
      ...(options.stores?.budgets ? { store: options.stores.budgets } : {}),
      priceOf: (deployment, usage) => {
        const found = this.catalog.find(deployment.providerId, deployment.modelId);
        return priceUsage(deployment.providerId, found?.upstreamModel ?? deployment.modelId, usage, this.pricing).costUsd ?? 0;
      },
      // Priced as the ledger prices the row, so a dollar budget counts the dollars the reports show.
      costOf: (record) => (typeof record.costUsd === 'number' ? record.costUsd : (priceRecord(record, { ...this.pricing, upstreamModels: this.upstreamModels }).costUsd ?? 0)),
      logger: this.logger.child({ component: 'budgets' }),
    });
    this.observers.push(this.budgets);
    // One line per request on the log, priced as the ledger will price it.
    this.observers.push(new RequestLog(this.logger.child({ component: 'requests' }), (record) => priceRecord(record, { ...this.pricing, upstreamModels: this.upstreamModels }).costUsd));
    this.responseCache = new ResponseCache(
      options.stores?.cache ?? new MemoryCacheStore(options.config.cache.max_bytes),
      options.config.cache,
    );
    this.responses = options.stores?.responses ?? new MemoryResponseStore(options.config.responses.max_bytes);
    this.semanticCache = new SemanticCache(
      options.stores?.semanticCache ?? new MemorySemanticCacheStore(options.config.cache.semantic.max_namespaces),
      options.config.cache,
      (request, signal) => embedForSemanticCache(this, request, signal),
    );
    this.contextNudge = new ContextNudge({
      config: options.config.insight.nudge,
      states: {
        get: (sessionId) => this.sessions.current(sessionId)?.nudge,
        set: (sessionId, state) => {
          const record = this.sessions.current(sessionId);
          if (record) record.nudge = state;
        },
      },
      // The served model's real window; unknown windows never nudge (no assumed size).
      contextWindow: (provider, model) => (provider ? this.catalog.find(provider, model)?.contextWindow : undefined),
    });
    this.observers.push(this.contextNudge);
    if (options.config.routing.difficulty.estimator === 'learned') {
      void loadLearnedDifficulty().then(({ estimator, error }) => {
        if (estimator) this.modelRouter.setDifficultyEstimator(estimator);
        else this.logger.warn({ error }, 'learned difficulty estimator unavailable; using the heuristic');
      });
    }
    const resilience = options.config.resilience;
    this.authRests = new KeyAuthRests({ firstRestMs: resilience.auth_rest_ms, maxRestMs: resilience.auth_rest_max_ms }, (event) => {
      this.logger.warn(
        {
          provider: event.providerId,
          key: event.keyHint,
          keyId: event.keyId,
          scope: event.scope,
          ...(event.model === undefined ? {} : { model: event.model }),
          status: event.status,
          reason: event.reason,
          restMs: event.restMs,
          streak: event.streak,
        },
        event.scope === 'key'
          ? 'provider key refused (401): resting it for every model, then trying it again'
          : 'provider key refused for one model (403): resting it on that model, then trying it again',
      );
      for (const listener of this.authRestListeners) listener(event);
    }, options.authRestClock);
    this.attemptLoop = this.buildAttemptLoop(options.config, this.providers, this.keyPools);
  }

  private buildCatalog(config: Config): ModelCatalog {
    return new ModelCatalog(config, {
      probes: this.probeSource?.current() ?? readProbeResults(probeFilePath(this.dataDir)),
      probeTtlMs: config.routing.probe_ttl_hours * 3_600_000,
    });
  }

  private buildAttemptLoop(config: Config, providers: Map<string, Provider>, keyPools: Map<string, KeyPool>): AttemptLoop {
    return new AttemptLoop({
      providers,
      keyPools,
      timeoutsFor: (providerId) => this.timeoutsFor(providerId),
      breakers: this.breakers,
      cooldowns: this.cooldowns,
      authRests: this.authRests,
      settings: {
        maxAttempts: config.resilience.max_attempts,
        retryAfterCapMs: config.resilience.retry_after_cap_ms,
        cooldownMs: config.resilience.cooldown_ms,
      },
    });
  }

  /** Whether `reloadFromSource` can re-read the config (the gateway was started from a file, not an inline object). */
  get reloadable(): boolean {
    return this.configSource !== undefined;
  }

  /** Re-reads the config from its file and applies it (`reload`); a ConfigError leaves the running config as it was. */
  async reloadFromSource(): Promise<ReloadResult> {
    if (!this.configSource) {
      throw new GatewayError('invalid_request', 'This gateway was started from an inline config, not a file: there is nothing to re-read.', { status: 409 });
    }
    // `models: auto` lists are read again on every reload.
    const config = await expandAutoModels(this.configSource(), { env: this.env, dataDir: this.dataDir, logger: this.logger.child({ component: 'auto-models' }) });
    return this.reload(config);
  }

  /**
   * Applies a new config to the next request: providers (base URLs, keys, headers), models, prices, fallbacks,
   * routing, timeouts, resilience and budgets. Everything is built first; anything that fails to build rejects
   * the whole config (a `ConfigError`) and the running one stays. Requests already on their way finish on the old
   * providers: their connection pools close gracefully, after their last response. Keys resting after a 401/403
   * are tried again (the operator may have fixed them). Sessions, switches, breakers, caches and counters are kept.
   * Sections this does not apply (`server`, `storage`, `auth`, …) are listed in `restartRequired`.
   */
  reload(config: Config): ReloadResult {
    let upstream: Upstreams;
    let catalog: ModelCatalog;
    try {
      upstream = buildUpstreams(config, this.env);
      catalog = this.buildCatalog(config);
    } catch (error) {
      throw error instanceof ConfigError ? error : new ConfigError('the new config', [error instanceof Error ? error.message : String(error)]);
    }
    const previous = { config: this.config, providers: this.providers };
    this.config = config;
    this.catalog = catalog;
    this.providers = upstream.providers;
    this.keyPools = upstream.keyPools;
    this.timeouts = upstream.timeouts;
    this.dialects = upstream.dialects;
    this.pricing = pricingOf(config, catalog);
    this.upstreamModels = deploymentUpstreamModels(catalog.deployments);
    this.modelRouter.reconfigure(catalog, config.routing);
    this.attemptLoop = this.buildAttemptLoop(config, upstream.providers, upstream.keyPools);
    this.budgets.reconfigure(config.budgets);
    this.authRests.clear({ firstRestMs: config.resilience.auth_rest_ms, maxRestMs: config.resilience.auth_rest_max_ms });
    // Requests that already hold the old providers finish on them: undici closes a pool after its last response.
    void Promise.allSettled([...previous.providers.values()].map((provider) => provider.close()));
    for (const listener of this.reloadListeners) listener(config);
    const restartRequired = sectionsNeedingRestart(previous.config, config);
    this.logger.info({ providers: upstream.providers.size, models: catalog.deployments.length, restartRequired }, 'config reloaded');
    return { providers: [...upstream.providers.keys()], models: catalog.deployments.map((deployment) => deployment.qualifiedName), restartRequired };
  }

  /** Called after every reload with the new config (the ledger's prices follow it). */
  onReload(listener: (config: Config) => void): void {
    this.reloadListeners.push(listener);
  }

  timeoutsFor(providerId: string): ProviderTimeouts {
    return this.timeouts.get(providerId) ?? { connectMs: 10_000, firstByteMs: 120_000, idleMs: 60_000 };
  }

  dialectFor(providerId: string): UpstreamDialect {
    return this.dialects.get(providerId) ?? { supportsStreamOptions: true, maxTokensField: 'max_tokens' };
  }

  onAuthRest(listener: (event: AuthRestEvent) => void): void {
    this.authRestListeners.push(listener);
  }

  /**
   * Ends every authentication rest: the keys are tried again on the next request. For a config reload (the
   * operator may have replaced or fixed a key) and the admin API.
   */
  liftAuthRests(): void {
    this.authRests.clear();
  }

  /**
   * A part of the gateway `/health` reports on: `check` returns what is wrong, or undefined. Any answer makes the
   * status `degraded` (still serving; an operator must look).
   */
  addHealthCheck(name: string, check: () => string | undefined): void {
    this.healthCheckList.push({ name, check });
  }

  /** What is wrong now, by part (empty when nothing is). */
  healthProblems(): Record<string, string> {
    const problems: Record<string, string> = {};
    for (const { name, check } of this.healthCheckList) {
      const problem = check();
      if (problem !== undefined) problems[name] = problem;
    }
    return problems;
  }

  /** A reason to refuse new model requests (503), e.g. a ledger that cannot record them; checked before each. */
  addAdmissionCheck(check: () => string | undefined): void {
    this.admissionCheckList.push(check);
  }

  admissionRefusal(): string | undefined {
    for (const check of this.admissionCheckList) {
      const refusal = check();
      if (refusal !== undefined) return refusal;
    }
    return undefined;
  }

  onBreakerChange(listener: (key: string, state: BreakerState) => void): void {
    this.breakerListeners.push(listener);
  }

  /** Runs when the gateway closes (e.g. connection pools a route created lazily). */
  onClose(hook: () => Promise<void>): void {
    this.closeHooks.push(hook);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.closeHooks.map((hook) => hook()));
    await this.responses.close();
    await Promise.allSettled([...this.providers.values()].map((provider) => provider.close()));
  }
}

/** What a reload reports: what now serves, and which changed sections only a restart applies. */
export interface ReloadResult {
  providers: string[];
  models: string[];
  restartRequired: string[];
}

interface Upstreams {
  providers: Map<string, Provider>;
  keyPools: Map<string, KeyPool>;
  timeouts: Map<string, ProviderTimeouts>;
  dialects: Map<string, UpstreamDialect>;
}

/** Providers with their pools and keys, built from a config; on a failure the providers built so far are closed. */
function buildUpstreams(config: Config, env: NodeJS.ProcessEnv): Upstreams {
  const upstreams: Upstreams = { providers: new Map(), keyPools: new Map(), timeouts: new Map(), dialects: new Map() };
  try {
    config.providers.forEach((providerConfig, index) => {
      if (!providerConfig.enabled) return;
      const timeouts = { ...config.timeouts, ...providerConfig.timeouts };
      upstreams.keyPools.set(providerConfig.id, KeyPool.fromConfig(providerConfig, env));
      upstreams.providers.set(providerConfig.id, createProvider(providerConfig, timeouts.connect_ms, index, config.server.upstream_response_limit_bytes));
      upstreams.timeouts.set(providerConfig.id, { connectMs: timeouts.connect_ms, firstByteMs: timeouts.first_byte_ms, idleMs: timeouts.idle_ms });
      const kind: ProviderKindInfo = providerKinds[providerConfig.kind];
      upstreams.dialects.set(providerConfig.id, {
        supportsStreamOptions: kind.supportsStreamOptions,
        maxTokensField: kind.maxTokensField ?? 'max_tokens',
        foreignFields: foreignFields(providerConfig.kind),
      });
    });
  } catch (error) {
    void Promise.allSettled([...upstreams.providers.values()].map((provider) => provider.close()));
    throw error;
  }
  return upstreams;
}

function pricingOf(config: Config, catalog: ModelCatalog): PricingOptions {
  return {
    overrides: { ...deploymentPriceOverrides(catalog.deployments), ...config.ledger.prices },
    providerKinds: Object.fromEntries(config.providers.map((provider) => [provider.id, provider.kind])),
  };
}

/** The sections `reload` applies; a change anywhere else needs a restart. */
const reloadedSections = new Set(['providers', 'default_model', 'fallbacks', 'timeouts', 'resilience', 'routing', 'budgets', 'ledger']);

function sectionsNeedingRestart(before: Config, after: Config): string[] {
  return (Object.keys(after) as (keyof Config)[]).filter(
    (section) => !reloadedSections.has(section) && JSON.stringify(before[section]) !== JSON.stringify(after[section]),
  );
}
