/** Prices in USD per million tokens, as config writes them. */
export interface ModelPrices {
  input: number;
  output: number;
  cache_read?: number | undefined;
  cache_write?: number | undefined;
}

/** What routing needs to know about one (provider, model), before any call. Undefined means unknown. */
export interface ModelMetadata {
  contextWindow?: number;
  maxOutputTokens?: number;
  supportsTools?: boolean;
  supportsVision?: boolean;
  supportsReasoning?: boolean;
  embeddings?: boolean;
  /** 1 strongest … 5 weakest: a routing hint, not a promise of quality. */
  tier?: number;
  prices?: ModelPrices;
}

export type MetadataField = keyof ModelMetadata;

/**
 * Where a value came from, strongest first. `config`, `probe` and `bundled` count as confirmed; `pattern` is a
 * guess from the model's name and never confirms a capability (the tool loop needs a confirmed one).
 */
export type MetadataSource = 'config' | 'probe' | 'bundled' | 'pattern';

export const metadataFields = [
  'contextWindow',
  'maxOutputTokens',
  'supportsTools',
  'supportsVision',
  'supportsReasoning',
  'embeddings',
  'tier',
  'prices',
] as const satisfies readonly MetadataField[];

export type MetadataSources = Partial<Record<MetadataField, MetadataSource>>;

export function isConfirmedSource(source: MetadataSource | undefined): boolean {
  return source === 'config' || source === 'probe' || source === 'bundled';
}
