import { ModelCatalog } from '../../catalog/model-catalog.js';
import type { Config } from '../../config/schema.js';

/**
 * `cache.semantic.embedding_model` must name an embeddings model a provider serves (checked at load, so a typo
 * is a config error rather than every lookup failing open in silence). The schema checks the rest.
 */
export function semanticCacheConfigProblems(config: Config): string[] {
  const semantic = config.cache.semantic;
  if (!semantic.enabled || semantic.embedding_model === undefined || config.providers.length === 0) return [];
  const catalog = new ModelCatalog(config);
  const named = catalog.resolve(semantic.embedding_model);
  if (named.some((deployment) => deployment.embeddings === true)) return [];
  const available = catalog.embeddingDeployments().map((deployment) => deployment.modelId);
  const hint = available.length > 0 ? `one of: ${available.join(', ')}` : 'mark a provider model with `embeddings: true` and name it here';
  return [`cache.semantic.embedding_model: "${semantic.embedding_model}" is not an embeddings model served by any provider; use ${hint}`];
}
