import { type ModelPrice, type TieredPrices, calcPrice } from '@pydantic/genai-prices';
import type { Usage } from '../../core/usage.js';
import type { CatalogModel } from './catalog-model.js';

/** Price keys the fast path understands; a model priced with anything that our usage could touch goes slow. */
const fastKeys = new Set(['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok']);
/**
 * Keys whose usage the gateway never reports (audio, web searches, hour-long cache writes, storage): they add
 * nothing to a text request's price, so they do not force the slow path.
 */
const inertKeyPattern = /audio|image|video|search|_1h_|storage|character|second|hour|pixel|page/;

type PriceValue = number | TieredPrices;

function isFastPrice(prices: ModelPrice): boolean {
  return Object.entries(prices).every(
    ([key, value]) => value === undefined || fastKeys.has(key) || inertKeyPattern.test(key),
  );
}

/** The catalogue's tier rule: a tier applies to every token of the request once total input passes `start`. */
function perMillion(price: PriceValue, totalInput: number): number {
  if (typeof price === 'number') return price;
  let selected = price.base;
  for (const tier of [...price.tiers].sort((left, right) => left.start - right.start)) {
    if (totalInput > tier.start) selected = tier.price;
  }
  return selected;
}

/**
 * Cost of one request from the catalogue. The package's `calcPrice` costs ~0.1 ms a call even on a narrowed
 * provider, so plain per-token prices (nearly every chat model) are computed here with the same rules (cache
 * tokens are part of input; an unpriced cache kind is charged at the input price; tiers by total input); the
 * contract test checks this against `calcPrice` over the whole catalogue. Date- or time-conditional prices and
 * unusual keys go through `calcPrice` itself. Throws on usage the catalogue rejects (cache above input).
 */
export function catalogCost(entry: CatalogModel, usage: Usage, at: Date | undefined): number {
  const prices = entry.model.prices;
  if (Array.isArray(prices) || !isFastPrice(prices)) {
    const result = calcPrice(
      {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cache_read_tokens: usage.cacheReadTokens,
        cache_write_tokens: usage.cacheWriteTokens,
      },
      entry.model.id,
      at === undefined ? { provider: entry.provider } : { provider: entry.provider, timestamp: at },
    );
    if (result === null) throw new Error(`catalogue no longer prices ${entry.model.id}`);
    return result.total_price;
  }
  if (usage.cacheReadTokens + usage.cacheWriteTokens > usage.inputTokens) {
    throw new Error(
      `invalid usage: cache tokens (${usage.cacheReadTokens} read + ${usage.cacheWriteTokens} write) exceed input (${usage.inputTokens})`,
    );
  }
  const input = prices.input_mtok;
  const output = prices.output_mtok;
  const cacheRead = prices.cache_read_mtok;
  const cacheWrite = prices.cache_write_mtok;
  const total = usage.inputTokens;
  let uncached = usage.inputTokens;
  let cost = 0;
  if (cacheRead !== undefined) {
    uncached -= usage.cacheReadTokens;
    cost += (perMillion(cacheRead, total) * usage.cacheReadTokens) / 1e6;
  }
  if (cacheWrite !== undefined) {
    uncached -= usage.cacheWriteTokens;
    cost += (perMillion(cacheWrite, total) * usage.cacheWriteTokens) / 1e6;
  }
  if (input !== undefined) cost += (perMillion(input, total) * uncached) / 1e6;
  if (output !== undefined) cost += (perMillion(output, total) * usage.outputTokens) / 1e6;
  return cost;
}
