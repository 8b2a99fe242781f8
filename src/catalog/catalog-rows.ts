import type { Deployment } from './deployment.js';
import type { MetadataSources } from './metadata/model-metadata.js';

/** One line of `models list`: everything the router knows about a deployment, and where it came from. */
export interface CatalogRow {
  provider: string;
  model: string;
  upstreamModel: string;
  enabled: boolean;
  kind: 'chat' | 'embeddings';
  contextWindow: number | null;
  maxOutputTokens: number | null;
  tools: boolean | null;
  vision: boolean | null;
  reasoning: boolean | null;
  tier: number | null;
  inputPerMillion: number | null;
  outputPerMillion: number | null;
  sources: MetadataSources;
}

export function catalogRow(deployment: Deployment, enabled: boolean): CatalogRow {
  return {
    provider: deployment.providerId,
    model: deployment.modelId,
    upstreamModel: deployment.upstreamModel,
    enabled,
    kind: deployment.embeddings === true ? 'embeddings' : 'chat',
    contextWindow: deployment.contextWindow ?? null,
    maxOutputTokens: deployment.maxOutputTokens ?? null,
    tools: deployment.supportsTools ?? null,
    vision: deployment.supportsVision ?? null,
    reasoning: deployment.supportsReasoning ?? null,
    tier: deployment.tier ?? null,
    inputPerMillion: deployment.prices?.input ?? null,
    outputPerMillion: deployment.prices?.output ?? null,
    sources: deployment.sources ?? {},
  };
}
