import type { Usage } from '../../core/usage.js';
import { catalogCost } from './catalog-cost.js';
import { findCatalogModel } from './catalog-model.js';
import { catalogTarget } from './catalog-provider.js';
import { type PriceOverrides, findOverride, overrideCost } from './price-override.js';

export interface PricingOptions {
  /** Per-model prices from config; they win over the catalogue. */
  overrides?: PriceOverrides;
  /** Config provider id → provider kind (`work-openai` → `openai`); without an entry the id is taken as the kind. */
  providerKinds?: Readonly<Record<string, string>>;
  /** When the request ran, for prices that change by date or time of day; now when omitted. */
  at?: Date;
}

/**
 * `source` says where a price came from, or why there is none:
 * `override:<key>`, `catalog:<catalogue provider>/<catalogue model>`, `self-hosted`, `unpriced:unknown-model`,
 * `unpriced:no-usage`, `unpriced:invalid-usage`.
 */
export interface PriceResult {
  /** USD; null when unpriced. A report shows null as unknown, never as $0. */
  costUsd: number | null;
  source: string;
}

/**
 * Prices the usage one served request reported. Failed attempts carry no usage and are never passed here, so
 * they are never billed. Never throws: an unusable input comes back unpriced with the reason in `source`.
 */
export function priceUsage(
  provider: string,
  model: string,
  usage: Usage | undefined,
  options: PricingOptions = {},
): PriceResult {
  if (usage === undefined) return { costUsd: null, source: 'unpriced:no-usage' };
  const override = findOverride(options.overrides ?? {}, provider, model);
  if (override !== undefined) return { costUsd: overrideCost(override.price, usage), source: `override:${override.key}` };
  const target = catalogTarget(options.providerKinds?.[provider] ?? provider);
  if (target.kind === 'self-hosted') return { costUsd: 0, source: 'self-hosted' };
  if (target.kind === 'unknown') return { costUsd: null, source: 'unpriced:unknown-model' };
  const entry = findCatalogModel(target.providerId, model);
  if (entry === undefined) return { costUsd: null, source: 'unpriced:unknown-model' };
  try {
    return { costUsd: catalogCost(entry, usage, options.at), source: `catalog:${entry.provider.id}/${entry.model.id}` };
  } catch {
    return { costUsd: null, source: 'unpriced:invalid-usage' };
  }
}
