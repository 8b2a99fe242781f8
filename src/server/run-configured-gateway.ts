import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { GatewayMetrics } from '../ledger/metrics.js';
import { openLedger } from '../ledger/open-ledger.js';
import type { Ledger } from '../ledger/ledger.js';
import type { PriceOverride } from '../ledger/prices/price-override.js';
import { metricsRoute } from './routes/metrics.js';
import { createLogger, startGateway } from './start-gateway.js';
import type { RunningGateway } from './start-gateway.js';

export interface ConfiguredGateway extends RunningGateway {
  ledger: Ledger;
  metrics: GatewayMetrics;
}

/** Prices written on provider model entries, keyed `provider/model` as the ledger expects. */
function priceOverridesFrom(config: Config): Record<string, PriceOverride> {
  const overrides: Record<string, PriceOverride> = {};
  for (const provider of config.providers) {
    for (const model of provider.models) {
      if (typeof model !== 'string' && model.prices) overrides[`${provider.id}/${model.id}`] = model.prices;
    }
  }
  return overrides;
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
  const ledger = openLedger({
    dataDir: options.dataDir,
    config: options.config.ledger,
    metrics,
    logger: logger.child({ component: 'ledger' }),
    providerKinds: Object.fromEntries(options.config.providers.map((provider) => [provider.id, provider.kind])),
    priceOverrides: priceOverridesFrom(options.config),
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
