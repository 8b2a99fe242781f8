import { ModelCatalog } from '../catalog/model-catalog.js';
import type { Config } from '../config/schema.js';
import { InsightModels } from './insight-models.js';

/** Insight's prices and windows for a config: the same deployments (and price overrides) the ledger prices with. */
export function insightModelsFromConfig(config: Config): InsightModels {
  return new InsightModels({
    deployments: new ModelCatalog(config).deployments,
    priceOverrides: config.ledger.prices,
    defaultModel: config.default_model,
    baselineModel: config.insight.baseline_model,
  });
}
