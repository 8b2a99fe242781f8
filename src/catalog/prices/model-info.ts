import { findCatalogModel } from './catalog-model.js';
import { catalogTarget } from './catalog-provider.js';

/** What the price catalogue knows about a model besides its price, for the model catalog's defaults. */
export interface CatalogModelInfo {
  catalogProvider: string;
  catalogModel: string;
  name?: string;
  contextWindow?: number;
  deprecated?: boolean;
}

/**
 * Looks a model up by provider kind (or catalogue provider id) and model name; undefined when the catalogue does
 * not know it or the kind is self-hosted. Configured values should win over these.
 */
export function lookupModelInfo(providerKind: string, model: string): CatalogModelInfo | undefined {
  const target = catalogTarget(providerKind);
  if (target.kind !== 'catalog') return undefined;
  const entry = findCatalogModel(target.providerId, model);
  if (entry === undefined) return undefined;
  const info: CatalogModelInfo = { catalogProvider: entry.provider.id, catalogModel: entry.model.id };
  if (entry.model.name !== undefined) info.name = entry.model.name;
  if (entry.model.context_window !== undefined) info.contextWindow = entry.model.context_window;
  if (entry.model.deprecated !== undefined) info.deprecated = entry.model.deprecated;
  return info;
}
