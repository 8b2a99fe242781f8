import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { ensureDataDir } from '../config/data-dir.js';
import { GatewayMetrics } from '../ledger/metrics.js';
import { ledgerDatabasePath, openLedger } from '../ledger/open-ledger.js';
import { Ledger } from '../ledger/ledger.js';
import type { ClusterStores } from '../pipeline/stores/cluster-stores.js';
import { deploymentPriceOverrides, deploymentUpstreamModels } from '../catalog/prices/deployment-prices.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { metricsRoute } from './routes/metrics.js';
import type { DashboardGatewayView } from './routes/dashboard/dashboard-api.js';
import { dashboardRoute, gatewayDashboardView, gatewaySecurityOf } from './routes/dashboard/dashboard-route.js';
import type { GatewaySecurity } from '../security/gateway-security.js';
import { exportLimiterMetrics } from '../security/limit-metrics.js';
import { exportAuthRestMetrics } from '../dispatch/auth-rest-metrics.js';
import { dailyTotalsFromLedger } from '../security/daily-totals-from-ledger.js';
import { insightModelsFromConfig } from '../insight/insight-setup.js';
import { budgetsRebuildProblem, rebuildBudgetsFromLedger } from '../budgets/budgets-from-ledger.js';
import { budgetRules } from '../budgets/rules.js';
import { exportBudgetMetrics } from '../budgets/budget-metrics.js';
import { MemoryBudgetCounterStore } from '../store/memory/memory-budget-counter-store.js';
import { createLogger, startGateway } from './start-gateway.js';
import type { RunningGateway } from './start-gateway.js';

export interface ConfiguredGateway extends RunningGateway {
  ledger: Ledger;
  metrics: GatewayMetrics;
  /** Present with `storage: {kind: cluster}`: the shared Postgres/Redis state of this instance. */
  cluster?: ClusterStores;
}

/**
 * The production assembly: the gateway with its ledger (SQLite in the data directory), Prometheus metrics at
 * `/metrics`, breaker states exported, and a shutdown that flushes the ledger after in-flight requests ended.
 */
export async function runConfiguredGateway(options: {
  config: Config;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Re-reads the config file, for SIGHUP and `POST /v1/config/reload`. */
  configSource?: () => Config;
}): Promise<ConfiguredGateway> {
  // First, so a data directory that cannot be used is one clear error, before the ledger opens a file in it.
  ensureDataDir(options.dataDir);
  const logger = options.logger ?? createLogger(options.config.logging.level, options.config.logging.format);
  const metrics = new GatewayMetrics();
  const configuredDeployments = new ModelCatalog(options.config).deployments;
  const storage = options.config.storage;
  const breaker = options.config.resilience.breaker;
  const cluster =
    storage.kind === 'cluster'
      ? // Loaded only for a cluster, so a single instance never loads the Postgres and Redis clients.
        await (await import('../pipeline/stores/cluster-stores.js')).openClusterStores({
          storage,
          env: options.env,
          sessions: { ttlMs: options.config.sessions.ttl_ms, maxSessions: options.config.sessions.max_sessions },
          breakerSettings: { windowMs: breaker.window_ms, minCalls: breaker.min_calls, failureRate: breaker.failure_rate, openMs: breaker.open_ms },
          logger: logger.child({ component: 'cluster-state' }),
          registry: metrics.registry,
          cacheMaxEntryBytes: options.config.cache.max_bytes,
          responsesMaxEntryBytes: Math.min(options.config.responses.max_bytes, 8 * 1024 * 1024),
        })
      : undefined;
  const ledgerOptions = {
    config: options.config.ledger,
    metrics,
    logger: logger.child({ component: 'ledger' }),
    providerKinds: Object.fromEntries(options.config.providers.map((provider) => [provider.id, provider.kind])),
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
  const rules = budgetRules(options.config.budgets);
  const budgetsUnread = await rebuildBudgetsFromLedger(ledger.store, rules, budgetCounters, { logger: logger.child({ component: 'budgets' }) });
  const shutdown = async (): Promise<void> => {
    await ledger.close();
    await cluster?.close();
  };
  // The dashboard reads the SQLite ledger through its own read-only connection (in a cluster, the shared
  // Postgres ledger, so every instance shows all of them); /dashboard/api/* needs a
  // dashboard login (/auth/login, mounted with it) or the admin key.
  let dashboardGateway: DashboardGatewayView | undefined;
  let dashboardSecurity: GatewaySecurity | undefined;
  const dashboard = dashboardRoute({
    ledgerPath: ledgerDatabasePath(options.dataDir, options.config.ledger.database),
    ...(cluster ? { ledgerStore: cluster.ledgerStore } : {}),
    models: insightModelsFromConfig(options.config),
    env: options.env,
    gateway: () => dashboardGateway,
    security: () => dashboardSecurity,
    refreshMs: options.config.insight.dashboard_refresh_ms,
  });
  let running: RunningGateway;
  try {
    running = await startGateway({
    config: options.config,
    dataDir: options.dataDir,
    env: options.env,
    logger,
    observers: [ledger],
    ...(options.configSource ? { configSource: options.configSource } : {}),
    extraRoutes: [metricsRoute(metrics), dashboard],
    onShutdown: async () => {
      dashboard.close();
      await shutdown();
    },
    stores: cluster ? cluster.gatewayStores : { budgets: budgetCounters, ...(dailyTotals ? { counters: dailyTotals } : {}) },
      // First start without HERMES_ROUTER_ADMIN_KEY: generate one, store its hash, show it once. Not in a
      // cluster: instances starting together would each replace the others' key (set the variable on each).
      generateAdminKey: cluster === undefined,
    });
  } catch (error) {
    await shutdown();
    throw error;
  }
  dashboardGateway = gatewayDashboardView(running.gateway);
  dashboardSecurity = gatewaySecurityOf(running.gateway);
  running.gateway.onBreakerChange((key, state) => metrics.setCircuitState(key, state));
  running.gateway.addHealthCheck('ledger', () => ledger.health());
  running.gateway.addHealthCheck('budgets', () => budgetsRebuildProblem(rules, budgetsStartedAt, budgetsUnread, Date.now()));
  running.gateway.addAdmissionCheck(() => ledger.refusal());
  exportAuthRestMetrics(running.gateway.authRests, (listener) => running.gateway.onAuthRest(listener), metrics.registry);
  exportBudgetMetrics(running.gateway.budgets, metrics.registry);
  // A reloaded config's prices apply to the rows the ledger prices from then on.
  running.gateway.onReload((config) => {
    const deployments = new ModelCatalog(config).deployments;
    ledger.reprice({
      priceOverrides: deploymentPriceOverrides(deployments),
      upstreamModels: deploymentUpstreamModels(deployments),
      providerKinds: Object.fromEntries(config.providers.map((provider) => [provider.id, provider.kind])),
      prices: config.ledger.prices,
    });
  });
  if (cluster) {
    exportLimiterMetrics(running.security.limiter, metrics.registry);
    cluster.routingState.followPolicy(running.gateway.switches);
    await cluster.routingState.start();
  }
  return { ...running, ledger, metrics, ...(cluster ? { cluster } : {}) };
}
