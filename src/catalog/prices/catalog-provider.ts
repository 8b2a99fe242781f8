import { genaiPrices } from './genai-prices.js';
import { type ProviderKindInfo, providerKinds } from '../../config/provider-kinds.js';

export type CatalogTarget = { kind: 'catalog'; providerId: string } | { kind: 'self-hosted' } | { kind: 'unknown' };

const targets = new Map<string, CatalogTarget>();

/** `kind` is the provider's kind when known, else its id (which is often the same: `openai`, `anthropic`). */
export function catalogTarget(kind: string): CatalogTarget {
  let target = targets.get(kind);
  if (target === undefined) {
    target = resolveTarget(kind);
    // Kinds and provider ids come from config: a handful, so the cache needs no bound beyond a sanity cap.
    if (targets.size < 10_000) targets.set(kind, target);
  }
  return target;
}

/**
 * A provider *kind* says whose price list applies (`billing` in src/config/provider-kinds.ts: the one table of
 * kinds); a config's provider ids are the user's names (`work-openai`).
 */
function resolveTarget(kind: string): CatalogTarget {
  const info: ProviderKindInfo | undefined = Object.hasOwn(providerKinds, kind) ? providerKinds[kind as keyof typeof providerKinds] : undefined;
  if (info !== undefined) {
    if (info.billing === 'self-hosted') return { kind: 'self-hosted' };
    if (info.billing === 'unknown') return { kind: 'unknown' };
    return { kind: 'catalog', providerId: info.billing.catalogProvider };
  }
  // A provider id the catalogue recognises (`fireworks`, `x-ai`, `google`, and by its own name rules
  // `work-anthropic`), for callers that pass no kind map.
  const known = genaiPrices().findProvider({ providerId: kind });
  if (known !== undefined) return { kind: 'catalog', providerId: known.id };
  return { kind: 'unknown' };
}
