import type { Usage } from '../../core/usage.js';

/** A configured price, USD per million tokens. Cache prices default to the input price when omitted. */
export interface PriceOverride {
  input: number;
  output: number;
  cache_read?: number | undefined;
  cache_write?: number | undefined;
}

/** Keys are `provider/model` (one deployment) or `model` (that model on any provider); the longer key wins. */
export type PriceOverrides = Readonly<Record<string, PriceOverride>>;

export function findOverride(
  overrides: PriceOverrides,
  provider: string,
  model: string,
): { key: string; price: PriceOverride } | undefined {
  for (const key of [`${provider}/${model}`, model]) {
    const price = overrides[key];
    if (price !== undefined) return { key, price };
  }
  return undefined;
}

/** `usage.inputTokens` includes the cached tokens, so only the remainder is charged at the input price. */
export function overrideCost(price: PriceOverride, usage: Usage): number {
  const uncached = Math.max(usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens, 0);
  return (
    (uncached * price.input +
      usage.cacheReadTokens * (price.cache_read ?? price.input) +
      usage.cacheWriteTokens * (price.cache_write ?? price.input) +
      usage.outputTokens * price.output) /
    1_000_000
  );
}
