import { z } from 'zod';

/** How dear a failover may be: no dearer than the primary, free models only, or at most this USD per million tokens. */
export const maxPriceSchema = z.union([z.literal('primary'), z.literal('free_only'), z.number().nonnegative()]);

/** A fallback chain: a list of models, or `{models, max_price}`. */
export const fallbackChainSchema = z.union([
  z.array(z.string().min(1)),
  z.object({ models: z.array(z.string().min(1)), max_price: maxPriceSchema.optional() }).strict(),
]);

export type MaxPrice = z.output<typeof maxPriceSchema>;
export type FallbackChainEntry = z.output<typeof fallbackChainSchema>;

export interface FallbackChain {
  models: string[];
  maxPrice?: MaxPrice;
}

/** Either config form as one shape. */
export function fallbackChain(entry: FallbackChainEntry | undefined): FallbackChain {
  if (entry === undefined) return { models: [] };
  if (Array.isArray(entry)) return { models: entry };
  return entry.max_price === undefined ? { models: entry.models } : { models: entry.models, maxPrice: entry.max_price };
}
