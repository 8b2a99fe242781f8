import type { ModelMetadata, MetadataSource, MetadataSources } from './model-metadata.js';
import { metadataFields } from './model-metadata.js';

export interface MetadataLayer {
  source: MetadataSource;
  metadata: ModelMetadata | undefined;
}

/**
 * Merges metadata layers field by field, the first layer that knows a field winning (config, probe, bundled,
 * name pattern), and remembers which layer each value came from so `models list` and the filters can tell a
 * confirmed capability from a guess.
 */
export function resolveMetadata(layers: readonly MetadataLayer[]): { metadata: ModelMetadata; sources: MetadataSources } {
  const metadata: ModelMetadata = {};
  const sources: MetadataSources = {};
  for (const field of metadataFields) {
    const layer = layers.find((candidate) => candidate.metadata?.[field] !== undefined);
    if (!layer?.metadata) continue;
    Object.assign(metadata, { [field]: layer.metadata[field] });
    sources[field] = layer.source;
  }
  return { metadata, sources };
}
