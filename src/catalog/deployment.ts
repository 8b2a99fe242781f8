import type { MetadataSources, ModelMetadata } from './metadata/model-metadata.js';

/**
 * One model served by one provider: the unit that switches, breakers, cooldowns and prices apply to. Its
 * metadata fields (window, capabilities, tier, prices) are `ModelMetadata`'s, resolved from their sources.
 */
export interface Deployment extends ModelMetadata {
  providerId: string;
  /** The provider's kind (`openai`, `anthropic`, `ollama`…), which says whose catalogue and defaults apply. */
  providerKind?: string;
  /** The name clients use. */
  modelId: string;
  /** The name sent upstream. */
  upstreamModel: string;
  /** `provider/model`, always unambiguous. */
  qualifiedName: string;
  /** Provider-level cap on the estimated prompt size. */
  skipTokensOver?: number;
  /** Where each metadata value came from (config, probe, bundled, pattern). */
  sources?: MetadataSources;
  /** Request shaping from the provider and model entries (`extra_body`, model `headers`, `drop_fields`). */
  shaping?: RequestShaping;
}

export interface RequestShaping {
  /** Top-level members set on every body sent to this deployment (the model entry's win over the provider's). */
  extraBody?: Record<string, unknown>;
  /** Headers added to every call (the provider's own `headers` are sent by its transport already). */
  headers?: Record<string, string>;
  /** Top-level members removed before sending. */
  dropFields?: string[];
}
