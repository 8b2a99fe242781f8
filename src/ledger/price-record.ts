import type { RequestRecord } from '../core/ledger-record.js';
import { type PriceResult, type PricingOptions, priceUsage } from '../catalog/prices/price-usage.js';

/**
 * Prices a finished request. Only the usage of the attempt that served it is ever priced, so failed attempts
 * are never billed; a request nothing served, and that reports no usage, cost nothing. The served model is tried
 * first under its upstream name (what the provider bills), then under the name the client used: the successful
 * attempt's model first, then `servedModel`.
 */
export interface RecordPricingOptions extends PricingOptions {
  /** `provider/model` (the name clients use) → the upstream model name, when config maps one to the other. */
  upstreamModels?: Readonly<Record<string, string>>;
}

export function priceRecord(record: RequestRecord, options: RecordPricingOptions): PriceResult {
  if (record.usage === undefined) {
    if (record.servedModel === undefined || record.status >= 400) return { costUsd: 0, source: 'not-billed' };
    return { costUsd: null, source: 'unpriced:no-usage' };
  }
  const provider = record.servedProvider;
  if (provider === undefined) return { costUsd: null, source: 'unpriced:unknown-model' };
  const served = [...record.attempts].reverse().find((attempt) => attempt.provider === provider && attempt.status < 400);
  const upstream = (model: string | undefined): string | undefined =>
    model === undefined ? undefined : options.upstreamModels?.[`${provider}/${model}`];
  const names = [upstream(served?.model), served?.model, upstream(record.servedModel), record.servedModel].filter(
    (name, index, all): name is string => name !== undefined && all.indexOf(name) === index,
  );
  const pricing: PricingOptions = { ...options, at: new Date(record.startedAt) };
  let result: PriceResult = { costUsd: null, source: 'unpriced:unknown-model' };
  for (const name of names) {
    result = priceUsage(provider, name, record.usage, pricing);
    if (result.costUsd !== null || result.source === 'unpriced:invalid-usage') return result;
  }
  return result;
}
