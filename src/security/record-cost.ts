import { ModelCatalog } from '../catalog/model-catalog.js';
import type { Config } from '../config/schema.js';
import type { RequestRecord } from '../core/ledger-record.js';
import { priceRecord } from '../ledger/price-record.js';
import { deploymentPriceOverrides, deploymentUpstreamModels } from '../catalog/prices/deployment-prices.js';

/**
 * Prices a finished request the way the ledger will (the ledger prices later, on its own copy), so a key's
 * `cost_per_day_usd` counts the same dollars the reports show. Failed attempts are never priced.
 */
export function recordCostFunction(config: Config): (record: RequestRecord) => number | null {
  const deployments = new ModelCatalog(config).deployments;
  const options = {
    // `ledger.prices` as the ledger applies them (after the deployments' own), or a model priced only there
    // would count $0 against a key's limit while the reports show its cost.
    overrides: { ...deploymentPriceOverrides(deployments), ...config.ledger.prices },
    upstreamModels: deploymentUpstreamModels(deployments),
    providerKinds: Object.fromEntries(config.providers.map((provider) => [provider.id, provider.kind])),
  };
  return (record) => (typeof record.costUsd === 'number' ? record.costUsd : priceRecord(record, options).costUsd);
}
