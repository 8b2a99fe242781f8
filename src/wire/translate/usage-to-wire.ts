import type { JsonObject } from '../../core/json.js';
import type { Usage } from '../../core/usage.js';

/**
 * `Usage` in OpenAI's shape. Cache writes go in `prompt_tokens_details.cache_write_tokens` (OpenRouter's name):
 * OpenAI has no such field, clients ignore it, and our own usage reader picks it up again.
 */
export function usageToOpenAi(usage: Usage): JsonObject {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: usage.cacheWriteTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/** `Usage` in Anthropic's shape, where `input_tokens` excludes both cache counters. */
export function usageToAnthropic(usage: Usage): JsonObject {
  const anthropicUsage: JsonObject = {
    input_tokens: Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens),
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    output_tokens: usage.outputTokens,
  };
  if (usage.reasoningTokens > 0) anthropicUsage['output_tokens_details'] = { thinking_tokens: usage.reasoningTokens };
  return anthropicUsage;
}
