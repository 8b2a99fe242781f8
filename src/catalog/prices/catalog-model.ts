import { genaiPrices } from './genai-prices.js';
import { type CatalogModel, fastPricesOf } from './catalog-cost.js';

const cache = new Map<string, CatalogModel | null>();
const cacheLimit = 10_000;

/**
 * Finds the catalogue entry for a model at one provider (dated and dotted variants match through the
 * catalogue's own rules: `claude-sonnet-4-5-20250929` is `claude-sonnet-4-5`). Cached, misses included, because
 * the catalogue match walks hundreds of patterns.
 */
export function findCatalogModel(catalogProviderId: string, model: string): CatalogModel | undefined {
  const key = `${catalogProviderId}\u0000${model}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  let found: CatalogModel | null = null;
  const provider = genaiPrices().findProvider({ providerId: catalogProviderId });
  if (provider !== undefined) {
    // calcPrice is the only public door to the catalogue's model matching; a zero usage prices nothing.
    const result = genaiPrices().calcPrice({ input_tokens: 0, output_tokens: 0 }, model, { provider });
    if (result !== null) {
      found = {
        provider: { ...provider, models: [result.model] },
        model: result.model,
        fastPrices: fastPricesOf(result.model.prices),
      };
    }
  }
  if (cache.size >= cacheLimit) cache.clear();
  cache.set(key, found);
  return found ?? undefined;
}
