import type { Usage } from '../core/usage.js';
import type { PriceOverride, PriceOverrides } from '../catalog/prices/price-override.js';
import { priceUsage } from '../catalog/prices/price-usage.js';
import { deploymentPriceOverrides, deploymentUpstreamModels } from '../catalog/prices/deployment-prices.js';

/** The fields of a catalog deployment insight needs: where a model is served, its window and configured price. */
export interface InsightDeployment {
  providerId: string;
  providerKind?: string | undefined;
  modelId: string;
  upstreamModel: string;
  contextWindow?: number | undefined;
  prices?: PriceOverride | undefined;
}

export interface InsightModelsOptions {
  deployments: readonly InsightDeployment[];
  /** `ledger.prices` from config; deployment prices are added to them. */
  priceOverrides?: PriceOverrides;
  /** What the alias `hermes-router` means, for baselines. */
  defaultModel?: string | undefined;
  /** `requested`, or one model id every request is compared with. */
  baselineModel?: string;
}

const aliasModel = 'hermes-router';

function zeroUsage(partial: Partial<Usage>): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...partial };
}

/**
 * Prices and context windows for insight, looked up the way the ledger prices rows (config overrides, then the
 * catalogue by provider kind, upstream names first), so a saving is priced like the cost it is compared with.
 */
export class InsightModels {
  readonly #deployments: readonly InsightDeployment[];
  readonly #overrides: PriceOverrides;
  readonly #upstream: Record<string, string>;
  readonly #kinds: Record<string, string>;
  readonly #defaultModel: string | undefined;
  readonly #baselineModel: string;

  constructor(options: InsightModelsOptions) {
    this.#deployments = options.deployments;
    this.#overrides = { ...(options.priceOverrides ?? {}), ...deploymentPriceOverrides(options.deployments) };
    this.#upstream = deploymentUpstreamModels(options.deployments);
    this.#kinds = {};
    for (const deployment of options.deployments) {
      if (deployment.providerKind !== undefined) this.#kinds[deployment.providerId] = deployment.providerKind;
    }
    this.#defaultModel = options.defaultModel;
    this.#baselineModel = options.baselineModel ?? 'requested';
  }

  /** USD for this usage on provider/model, or null when the model has no known price. */
  price(provider: string, model: string, usage: Partial<Usage>): number | null {
    const full = zeroUsage(usage);
    const names = [this.#upstream[`${provider}/${model}`], model].filter((name): name is string => name !== undefined);
    for (const name of names) {
      const result = priceUsage(provider, name, full, { overrides: this.#overrides, providerKinds: this.#kinds });
      if (result.costUsd !== null) return result.costUsd;
    }
    return null;
  }

  /** The served model's real context window, or undefined when nothing (config, probe, catalogue) states it. */
  contextWindow(provider: string | null, model: string): number | undefined {
    const exact = this.#deployments.find((deployment) => deployment.providerId === provider && deployment.modelId === model);
    if (exact?.contextWindow !== undefined) return exact.contextWindow;
    const windows = this.#deployments
      .filter((deployment) => deployment.modelId === model || deployment.upstreamModel === model)
      .map((deployment) => deployment.contextWindow)
      .filter((window): window is number => window !== undefined);
    // The same model name on several providers: the smallest window is the one that can overflow.
    return windows.length === 0 ? undefined : Math.min(...windows);
  }

  /**
   * The deployments a request is compared with for routing savings (the requested model on every provider that
   * serves it); empty when the baseline is not a configured model, and then no routing saving is claimed.
   */
  baselines(requestedModel: string): { provider: string; model: string }[] {
    let name = this.#baselineModel === 'requested' ? requestedModel : this.#baselineModel;
    if (name === aliasModel) name = this.#defaultModel ?? name;
    const slash = name.indexOf('/');
    const qualified = slash > 0 ? { provider: name.slice(0, slash), model: name.slice(slash + 1) } : undefined;
    return this.#deployments
      .filter((deployment) =>
        qualified === undefined
          ? deployment.modelId === name
          : deployment.providerId === qualified.provider && deployment.modelId === qualified.model,
      )
      .map((deployment) => ({ provider: deployment.providerId, model: deployment.modelId }));
  }
}
