import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { GatewayMetrics } from '../ledger/metrics.js';
import { openLedger } from '../ledger/open-ledger.js';
import type { Ledger } from '../ledger/ledger.js';
import { deploymentPriceOverrides, deploymentUpstreamModels } from '../ledger/prices/deployment-prices.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { metricsRoute } from './routes/metrics.js';
import { createLogger, startGateway } from './start-gateway.js';
import type { RunningGateway } from './start-gateway.js';

export interface ConfiguredGateway extends RunningGateway {
  ledger: Ledger;
  metrics: GatewayMetrics;
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
}): Promise<ConfiguredGateway> {
  const logger = options.logger ?? createLogger(options.config.logging.level);
  const metrics = new GatewayMetrics();
  const configuredDeployments = new ModelCatalog(options.config).deployments;
  const ledger = openLedger({
    dataDir: options.dataDir,
    config: options.config.ledger,
    metrics,
    logger: logger.child({ component: 'ledger' }),
    providerKinds: Object.fromEntries(options.config.providers.map((provider) => [provider.id, provider.kind])),
    // Prices and upstream names come from the config's model entries (the live catalog adds probe results
    // and bundled metadata, which carry no prices).
    priceOverrides: deploymentPriceOverrides(configuredDeployments),
    upstreamModels: deploymentUpstreamModels(configuredDeployments),
  });
  let running: RunningGateway;
  try {
    running = await startGateway({
    config: options.config,
    dataDir: options.dataDir,
    env: options.env,
    logger,
    observers: [ledger],
    extraRoutes: [metricsRoute(metrics)],
    onShutdown: () => ledger.close(),
    });
  } catch (error) {
    await ledger.close();
    throw error;
  }
  running.gateway.onBreakerChange((key, state) => metrics.setCircuitState(key, state));
  return { ...running, ledger, metrics };
}
