import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { GatewayMetrics } from '../ledger/metrics.js';
import { ledgerDatabasePath } from '../ledger/open-ledger.js';
import type { Ledger } from '../ledger/ledger.js';
import type { ClusterStores } from '../pipeline/stores/cluster-stores.js';
import { openConfiguredServices } from '../pipeline/configured-services.js';
import { metricsRoute } from './routes/metrics.js';
import type { DashboardGatewayView } from './routes/dashboard/dashboard-api.js';
import { dashboardRoute, gatewayDashboardView, gatewaySecurityOf } from './routes/dashboard/dashboard-route.js';
import type { GatewaySecurity } from '../security/gateway-security.js';
import { insightModelsFromConfig } from '../insight/insight-setup.js';
import { createLogger, startGateway } from './start-gateway.js';
import type { RunningGateway } from './start-gateway.js';

export interface ConfiguredGateway extends RunningGateway {
  ledger: Ledger;
  metrics: GatewayMetrics;
  /** Present with `storage: {kind: cluster}`: the shared Postgres/Redis state of this instance. */
  cluster?: ClusterStores;
}

/**
 * The production gateway over HTTP: the services of `pipeline/configured-services.ts` (ledger, metrics, cluster
 * stores, budgets), plus what is HTTP — `/metrics`, the dashboard and its login — and the shutdown order (stop
 * accepting → drain in-flight → close the services).
 */
export async function runConfiguredGateway(options: {
  config: Config;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Re-reads the config file, for SIGHUP and `POST /v1/config/reload`. */
  configSource?: () => Config;
  /** The clock of the key rests after a 401/403 (`GatewayOptions.authRestClock`), for tests. */
  authRestClock?: () => number;
}): Promise<ConfiguredGateway> {
  const logger = options.logger ?? createLogger(options.config.logging.level, options.config.logging.format);
  const services = await openConfiguredServices({ config: options.config, dataDir: options.dataDir, env: options.env, logger });
  const { ledger, metrics, cluster } = services;
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
      observers: services.observers,
      ...(options.configSource ? { configSource: options.configSource } : {}),
      ...(options.authRestClock ? { authRestClock: options.authRestClock } : {}),
      extraRoutes: [metricsRoute(metrics), dashboard],
      onShutdown: async () => {
        dashboard.close();
        await services.close();
      },
      stores: services.stores,
      // First start without HERMES_ROUTER_ADMIN_KEY: generate one, store its hash, show it once. Not in a
      // cluster: instances starting together would each replace the others' key (set the variable on each).
      generateAdminKey: cluster === undefined,
    });
  } catch (error) {
    await services.close();
    throw error;
  }
  dashboardGateway = gatewayDashboardView(running.gateway);
  dashboardSecurity = gatewaySecurityOf(running.gateway);
  await services.attach(running.gateway, running.security);
  return { ...running, ledger, metrics, ...(cluster ? { cluster } : {}) };
}
