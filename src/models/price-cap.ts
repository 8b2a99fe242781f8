import type { MaxPrice } from '../config/fallbacks.js';
import type { ModelPrices } from '../catalog/metadata/model-metadata.js';
import type { PriceCapDecision } from '../core/route-decision.js';
import type { Candidate } from './candidate.js';

function describe(prices: ModelPrices): string {
  return `$${prices.input}/$${prices.output} per million tokens`;
}

/** Why a fallback is dearer than the chain allows, or undefined when it may be tried. */
function refusalReason(prices: ModelPrices | undefined, maxPrice: MaxPrice, primary: ModelPrices | undefined): string | undefined {
  if (prices === undefined) return 'no known price';
  if (maxPrice === 'free_only') return prices.input === 0 && prices.output === 0 ? undefined : `${describe(prices)}, not free`;
  if (maxPrice === 'primary') {
    if (primary === undefined) return 'the primary model has no known price to compare with';
    return prices.input <= primary.input && prices.output <= primary.output ? undefined : `${describe(prices)}, dearer than the primary's ${describe(primary)}`;
  }
  return prices.input <= maxPrice && prices.output <= maxPrice ? undefined : `${describe(prices)}, over the $${maxPrice} ceiling`;
}

/**
 * Bounds what a failover may cost (`fallbacks.<model>.max_price`): the models the client named stay; every
 * fallback and the global default that is dearer than allowed, or has no known price, is dropped before any call
 * and recorded, so a broken primary never turns into a surprise bill.
 */
export function capFallbackPrices(candidates: readonly Candidate[], maxPrice: MaxPrice): { candidates: Candidate[]; decision: PriceCapDecision } {
  const primary = candidates.find((candidate) => candidate.source === 'explicit')?.deployment.prices;
  const refused: PriceCapDecision['refused'] = [];
  const kept = candidates.filter((candidate) => {
    if (candidate.source === 'explicit') return true;
    const reason = refusalReason(candidate.deployment.prices, maxPrice, primary);
    if (reason === undefined) return true;
    refused.push({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId, reason });
    return false;
  });
  return { candidates: kept, decision: { maxPrice, refused } };
}

/** The sentence added to the error of a request whose primary failed with nowhere cheap enough to go. */
export function priceCapMessage(decision: PriceCapDecision): string {
  const bound = decision.maxPrice === 'primary' ? 'no dearer than the primary' : decision.maxPrice === 'free_only' ? 'free models only' : `at most $${decision.maxPrice} per million tokens`;
  const refused = decision.refused.map((entry) => `${entry.provider}/${entry.model} (${entry.reason})`).join(', ');
  return `No fallback was tried: max_price allows ${bound}, and ${refused} ${decision.refused.length === 1 ? 'is' : 'are'} not within it.`;
}
