import type { PriceOverride, PriceOverrides } from './price-override.js';

/** The fields of a catalog deployment (src/catalog/deployment.ts) that carry a configured price. */
export interface PricedDeployment {
  providerId: string;
  modelId: string;
  upstreamModel: string;
  prices?: PriceOverride | undefined;
}

/**
 * Prices written on provider model entries in config, as overrides keyed `provider/model` under both the name
 * clients use and the upstream name, so a record priced by either finds them.
 */
export function deploymentPriceOverrides(deployments: readonly PricedDeployment[]): PriceOverrides {
  const overrides: Record<string, PriceOverride> = {};
  for (const deployment of deployments) {
    if (deployment.prices === undefined) continue;
    overrides[`${deployment.providerId}/${deployment.modelId}`] = deployment.prices;
    overrides[`${deployment.providerId}/${deployment.upstreamModel}`] = deployment.prices;
  }
  return overrides;
}

/** `provider/model` → upstream name, for deployments whose upstream name differs from the client-facing one. */
export function deploymentUpstreamModels(deployments: readonly PricedDeployment[]): Record<string, string> {
  const upstream: Record<string, string> = {};
  for (const deployment of deployments) {
    if (deployment.upstreamModel !== deployment.modelId) {
      upstream[`${deployment.providerId}/${deployment.modelId}`] = deployment.upstreamModel;
    }
  }
  return upstream;
}
