/**
 * Token usage as a provider reported it, normalised across formats.
 *
 * `inputTokens` is the whole prompt: for OpenAI it is `prompt_tokens` (which already includes cached tokens);
 * for Anthropic it is `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`. The cache fields
 * are subsets of it, so cost = (input - cacheRead - cacheWrite) * inputPrice + cacheRead * readPrice + ...
 * `reasoningTokens` is a subset of `outputTokens`.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}
