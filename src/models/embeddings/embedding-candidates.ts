import type { ModelCatalog } from '../../catalog/model-catalog.js';
import { routerAlias } from '../../catalog/model-catalog.js';
import type { Deployment } from '../../catalog/deployment.js';
import { GatewayError } from '../../core/errors.js';
import { fallbackChain } from '../../config/fallbacks.js';
import type { Candidate } from '../candidate.js';

/**
 * Candidates for `POST /v1/embeddings`: the named embeddings model then its fallbacks, or (for the alias or no
 * model) every embeddings model in config order. The order is stable on purpose: vectors from different models
 * have different dimensions and meanings, so a caller must not get a different model from one call to the next
 * unless the first one fails. Switched-off models are left out; `servable` says which providers can embed.
 */
export function embeddingCandidates(
  catalog: ModelCatalog,
  requestedModel: string | undefined,
  isEnabled: (deployment: Deployment) => boolean,
  servable: (deployment: Deployment) => boolean,
): Candidate[] {
  const all = catalog.embeddingDeployments().filter(servable);
  if (all.length === 0) {
    throw new GatewayError('unavailable', 'No embeddings model is configured. Mark one with `embeddings: true` under a provider\'s models.');
  }
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const add = (deployments: Deployment[], source: Candidate['source']) => {
    for (const deployment of deployments) {
      if (seen.has(deployment.qualifiedName) || deployment.embeddings !== true || !servable(deployment)) continue;
      seen.add(deployment.qualifiedName);
      candidates.push({ deployment, source });
    }
  };
  if (requestedModel === undefined || requestedModel === routerAlias) {
    add(all, 'default');
  } else {
    const named = catalog.resolve(requestedModel);
    if (named.length === 0 || named.every((deployment) => deployment.embeddings !== true)) {
      const available = all.map((deployment) => deployment.modelId).join(', ');
      throw new GatewayError('model_not_found', `"${requestedModel}" is not an embeddings model served here. Embeddings models: ${available}.`);
    }
    add(named, 'explicit');
    for (const fallback of fallbackChain(catalog.config.fallbacks[requestedModel]).models) add(catalog.resolve(fallback), 'fallback');
  }
  const enabled = candidates.filter((candidate) => isEnabled(candidate.deployment));
  if (enabled.length === 0) {
    throw new GatewayError('unavailable', `Every embeddings model for this request is switched off (${candidates.map((candidate) => candidate.deployment.qualifiedName).join(', ')}).`);
  }
  return enabled;
}
