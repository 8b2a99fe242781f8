import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { ensureDataDir } from '../config/data-dir.js';
import { GatewayMetrics } from '../ledger/metrics.js';
import { openLedger } from '../ledger/open-ledger.js';
import { Ledger } from '../ledger/ledger.js';
import { deploymentPriceOverrides, deploymentUpstreamModels } from '../catalog/prices/deployment-prices.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import type { GatewaySecurity } from '../security/gateway-security.js';
import { exportLimiterMetrics } from '../security/limit-metrics.js';
import { exportAuthRestMetrics } from '../dispatch/auth-rest-metrics.js';
import { dailyTotalsFromLedger } from '../security/daily-totals-from-ledger.js';
import { budgetsRebuildProblem, rebuildBudgetsFromLedger } from '../budgets/budgets-from-ledger.js';
import { budgetRules } from '../budgets/rules.js';
import { exportBudgetMetrics } from '../budgets/budget-metrics.js';
import { MemoryBudgetCounterStore } from '../store/memory/memory-budget-counter-store.js';
import type { Gateway } from './gateway.js';
import type { RequestObserver } from './request-observer.js';
import type { ClusterStores } from './stores/cluster-stores.js';
import type { GatewayStores } from './stores/gateway-stores.js';

/**
 * What a production gateway runs with besides HTTP: the ledger (SQLite in the data directory, or the cluster's
 * Postgres), Prometheus metrics, the cluster's shared stores, budget counters and per-key daily totals rebuilt
 * from the ledger. The server (`server/run-configured-gateway.ts`) builds the gateway with `stores` and
 * `observers`, mounts its routes, then calls `attach`; `close` runs after in-flight requests ended.
 */
export interface ConfiguredServices {
  ledger: Ledger;
  metrics: GatewayMetrics;
  /** Present with `storage: {kind: cluster}`: the shared Postgres/Redis state of this instance. */
  cluster?: ClusterStores;
  stores: GatewayStores;
  observers: RequestObserver[];
  /** Health and admission checks, metrics exports, repricing on reload, and the cluster's routing state. */
  attach(gateway: Gateway, security: GatewaySecurity): Promise<void>;
  close(): Promise<void>;
}

export async function openConfiguredServices(options: {
  config: Config;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}): Promise<ConfiguredServices> {
  const { config, logger } = options;
  // First, so a data directory that cannot be used is one clear error, before the ledger opens a file in it.
  ensureDataDir(options.dataDir);
  const metrics = new GatewayMetrics();
  const configuredDeployments = new ModelCatalog(config).deployments;
  const storage = config.storage;
  const breaker = config.resilience.breaker;
  const cluster =
    storage.kind === 'cluster'
      ? // Loaded only for a cluster, so a single instance never loads the Postgres and Redis clients.
        await (await import('./stores/cluster-stores.js')).openClusterStores({
          storage,
          env: options.env,
          sessions: { ttlMs: config.sessions.ttl_ms, maxSessions: config.sessions.max_sessions },
          breakerSettings: { windowMs: breaker.window_ms, minCalls: breaker.min_calls, failureRate: breaker.failure_rate, openMs: breaker.open_ms },
          logger: logger.child({ component: 'cluster-state' }),
          registry: metrics.registry,
          cacheMaxEntryBytes: config.cache.max_bytes,
          responsesMaxEntryBytes: Math.min(config.responses.max_bytes, 8 * 1024 * 1024),
        })
      : undefined;
  const ledgerOptions = {
    config: config.ledger,
    metrics,
    logger: logger.child({ component: 'ledger' }),
    providerKinds: Object.fromEntries(config.providers.map((provider) => [provider.id, provider.kind])),
    // Prices and upstream names come from the config's model entries (the live catalog adds probe results
    // and bundled metadata, which carry no prices).
    priceOverrides: deploymentPriceOverrides(configuredDeployments),
    upstreamModels: deploymentUpstreamModels(configuredDeployments),
  };
  // Cluster: one Postgres ledger for every instance; otherwise SQLite in the data directory.
  const ledger = cluster
    ? new Ledger({ ...ledgerOptions, store: cluster.ledgerStore, ownsStore: true })
    : openLedger({ ...ledgerOptions, dataDir: options.dataDir });
  // One instance counts per-key daily totals in memory: start them from today's ledger rows, so a restart does not
  // reset a key's daily budget (a cluster keeps them in Redis).
  const dailyTotals = cluster ? undefined : await dailyTotalsFromLedger(ledger.store, { logger: logger.child({ component: 'key-limits' }) });
  // Budgets: a cluster's counters are in Redis; one instance keeps them in memory. Either way they start from the
  // ledger (a counter that already exists is left alone), so a restart does not hand out a fresh day or month.
  const budgetCounters = cluster?.gatewayStores.budgets ?? new MemoryBudgetCounterStore();
  const budgetsStartedAt = Date.now();
  const rules = budgetRules(config.budgets);
  const budgetsUnread = await rebuildBudgetsFromLedger(ledger.store, rules, budgetCounters, { logger: logger.child({ component: 'budgets' }) });
  return {
    ledger,
    metrics,
    ...(cluster ? { cluster } : {}),
    stores: cluster ? cluster.gatewayStores : { budgets: budgetCounters, ...(dailyTotals ? { counters: dailyTotals } : {}) },
    observers: [ledger],
    async attach(gateway, security) {
      gateway.onBreakerChange((key, state) => metrics.setCircuitState(key, state));
      gateway.addHealthCheck('ledger', () => ledger.health());
      gateway.addHealthCheck('budgets', () => budgetsRebuildProblem(rules, budgetsStartedAt, budgetsUnread, Date.now()));
      gateway.addAdmissionCheck(() => ledger.refusal());
      exportAuthRestMetrics(gateway.authRests, (listener) => gateway.onAuthRest(listener), metrics.registry);
      exportBudgetMetrics(gateway.budgets, metrics.registry);
      // A reloaded config's prices apply to the rows the ledger prices from then on.
      gateway.onReload((reloaded) => {
        const deployments = new ModelCatalog(reloaded).deployments;
        ledger.reprice({
          priceOverrides: deploymentPriceOverrides(deployments),
          upstreamModels: deploymentUpstreamModels(deployments),
          providerKinds: Object.fromEntries(reloaded.providers.map((provider) => [provider.id, provider.kind])),
          prices: reloaded.ledger.prices,
        });
      });
      if (cluster) {
        exportLimiterMetrics(security.limiter, metrics.registry);
        cluster.routingState.followPolicy(gateway.switches);
        await cluster.routingState.start();
      }
    },
    async close() {
      await ledger.close();
      await cluster?.close();
    },
  };
}
