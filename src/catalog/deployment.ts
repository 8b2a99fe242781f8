/** One model served by one provider: the unit that switches, breakers, cooldowns and prices apply to. */
export interface Deployment {
  providerId: string;
  /** The name clients use. */
  modelId: string;
  /** The name sent upstream. */
  upstreamModel: string;
  /** `provider/model`, always unambiguous. */
  qualifiedName: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  supportsTools?: boolean;
  supportsVision?: boolean;
  supportsReasoning?: boolean;
  embeddings?: boolean;
  tier?: number;
  prices?: { input: number; output: number; cache_read?: number | undefined; cache_write?: number | undefined };
  /** Provider-level cap on the estimated prompt size. */
  skipTokensOver?: number;
}
