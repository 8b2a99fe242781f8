import { lookupModelInfo } from '../prices/model-info.js';
import { priceUsage } from '../prices/price-usage.js';
import type { ModelMetadata } from './model-metadata.js';

// A small sample, scaled up: a million-token sample would hit long-context price tiers.
const sampleTokens = 1_000;
const sample = { inputTokens: sampleTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

/**
 * Context window and per-million prices from the price catalogue the ledger uses (@pydantic/genai-prices), read
 * through the same lookup the ledger prices with (`../prices/`), so both agree on which catalogue entry a model
 * is. Self-hosted kinds price at 0.
 */
/** Float noise from the scaling would show in `models list`. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function catalogueMetadata(providerKind: string, model: string): ModelMetadata {
  const metadata: ModelMetadata = {};
  const info = lookupModelInfo(providerKind, model);
  if (info?.contextWindow !== undefined) metadata.contextWindow = info.contextWindow;
  const options = { providerKinds: { [providerKind]: providerKind } };
  const input = priceUsage(providerKind, model, sample, options);
  const output = priceUsage(providerKind, model, { ...sample, inputTokens: 0, outputTokens: sampleTokens }, options);
  if (input.costUsd !== null && output.costUsd !== null) {
    const scale = 1_000_000 / sampleTokens;
    metadata.prices = { input: round(input.costUsd * scale), output: round(output.costUsd * scale) };
  }
  return metadata;
}
