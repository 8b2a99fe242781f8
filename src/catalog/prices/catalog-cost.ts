import type { ConditionalPrice, ModelInfo, ModelPrice, Provider, TieredPrices } from '@pydantic/genai-prices';
import { genaiPrices } from './genai-prices.js';
import type { Usage } from '../../core/usage.js';

/** Price keys the fast path understands; a model priced with anything our usage could touch goes slow. */
const fastKeys = new Set(['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok']);
/**
 * Keys whose usage the gateway never reports (audio, web searches, hour-long cache writes, storage): they add
 * nothing to a text request's price, so they do not force the slow path.
 */
const inertKeyPattern = /audio|image|video|search|_1h_|storage|character|second|hour|pixel|page/;

/** A per-million price with its tiers sorted once. */
type FastPrice = number | { base: number; tiers: { start: number; price: number }[] };

/** The four prices the fast path needs; `undefined` when the model needs the package's own calculation. */
export interface FastPrices {
  input?: FastPrice;
  output?: FastPrice;
  cacheRead?: FastPrice;
  cacheWrite?: FastPrice;
}

function toFastPrice(value: number | TieredPrices | undefined): FastPrice | undefined {
  if (value === undefined || typeof value === 'number') return value;
  return { base: value.base, tiers: [...value.tiers].sort((left, right) => left.start - right.start) };
}

/**
 * A catalogue model with its provider narrowed to that one model, so later price calls skip the matching
 * (`catalog-model.ts` finds and caches them; the cost arithmetic here only reads them).
 */
export interface CatalogModel {
  provider: Provider;
  model: ModelInfo;
  /** Undefined when the model's prices need the package's own calculation. */
  fastPrices: FastPrices | undefined;
}

/** Decided once per catalogue model (the result is cached with it). */
export function fastPricesOf(prices: ConditionalPrice[] | ModelPrice): FastPrices | undefined {
  if (Array.isArray(prices)) return undefined;
  const fast = Object.entries(prices).every(
    ([key, value]) => value === undefined || fastKeys.has(key) || inertKeyPattern.test(key),
  );
  if (!fast) return undefined;
  const result: FastPrices = {};
  const input = toFastPrice(prices.input_mtok);
  const output = toFastPrice(prices.output_mtok);
  const cacheRead = toFastPrice(prices.cache_read_mtok);
  const cacheWrite = toFastPrice(prices.cache_write_mtok);
  if (input !== undefined) result.input = input;
  if (output !== undefined) result.output = output;
  if (cacheRead !== undefined) result.cacheRead = cacheRead;
  if (cacheWrite !== undefined) result.cacheWrite = cacheWrite;
  return result;
}

/** The catalogue's tier rule: a tier applies to every token of the request once total input passes `start`. */
function perMillion(price: FastPrice, totalInput: number): number {
  if (typeof price === 'number') return price;
  let selected = price.base;
  for (const tier of price.tiers) {
    if (totalInput > tier.start) selected = tier.price;
  }
  return selected;
}

/**
 * Cost of one request from the catalogue. The package's `calcPrice` costs ~0.1 ms a call even on a narrowed
 * provider, so plain per-token prices (nearly every chat model) are computed here with the same rules (cache
 * tokens are part of input; an unpriced cache kind is charged at the input price; tiers by total input); a
 * property test checks this against `calcPrice` over the whole catalogue. Date- or time-conditional prices and
 * unusual keys go through `calcPrice` itself. Throws on usage the catalogue rejects (cache above input).
 */
export function catalogCost(entry: CatalogModel, usage: Usage, at: Date | undefined): number {
  const prices = entry.fastPrices;
  if (prices === undefined) {
    const result = genaiPrices().calcPrice(
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
  const total = usage.inputTokens;
  let uncached = usage.inputTokens;
  let cost = 0;
  if (prices.cacheRead !== undefined) {
    uncached -= usage.cacheReadTokens;
    cost += (perMillion(prices.cacheRead, total) * usage.cacheReadTokens) / 1e6;
  }
  if (prices.cacheWrite !== undefined) {
    uncached -= usage.cacheWriteTokens;
    cost += (perMillion(prices.cacheWrite, total) * usage.cacheWriteTokens) / 1e6;
  }
  if (prices.input !== undefined) cost += (perMillion(prices.input, total) * uncached) / 1e6;
  if (prices.output !== undefined) cost += (perMillion(prices.output, total) * usage.outputTokens) / 1e6;
  return cost;
}
