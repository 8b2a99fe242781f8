import { findProvider } from '@pydantic/genai-prices';

/**
 * Maps a provider *kind* (src/providers/kinds.ts) to the provider id of the price catalogue. A config's provider
 * ids are the user's names (`work-openai`); the kind says whose price list applies.
 */
const catalogProviderByKind: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  openrouter: 'openrouter',
  deepseek: 'deepseek',
  groq: 'groq',
  mistral: 'mistral',
  together: 'together',
  'gemini-openai': 'google',
  google: 'google',
};

/**
 * Kinds that run on the user's own hardware: nobody bills per token, so they cost $0 (source `self-hosted`)
 * unless a price override says otherwise. An unknown OpenAI-compatible endpoint is *not* in this list: it stays
 * unpriced until configured.
 */
const selfHostedKinds: ReadonlySet<string> = new Set(['ollama', 'vllm', 'llama-cpp']);

/**
 * Kinds that say nothing about who bills: a generic OpenAI-compatible endpoint could be anyone's. The catalogue
 * would match `openai-compatible` to OpenAI by name, so it is refused here and such models stay unpriced until
 * configured.
 */
const unknownBillerKinds: ReadonlySet<string> = new Set(['openai-compatible']);

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

function resolveTarget(kind: string): CatalogTarget {
  if (selfHostedKinds.has(kind)) return { kind: 'self-hosted' };
  if (unknownBillerKinds.has(kind)) return { kind: 'unknown' };
  const providerId = catalogProviderByKind[kind];
  if (providerId !== undefined) return { kind: 'catalog', providerId };
  // A provider id the catalogue recognises (`fireworks`, `x-ai`, and by its own name rules `work-anthropic`),
  // for callers that pass no kind map.
  const known = findProvider({ providerId: kind });
  if (known !== undefined) return { kind: 'catalog', providerId: known.id };
  return { kind: 'unknown' };
}
