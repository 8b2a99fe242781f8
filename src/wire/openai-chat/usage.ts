import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { Usage } from '../../core/usage.js';
import { readNumber, readObject } from '../json-read.js';
import type { UsageAccumulator } from '../usage-accumulator.js';

/**
 * Normalises an OpenAI-style `usage` object. `prompt_tokens` already includes cached tokens. Cache reads come
 * from `prompt_tokens_details.cached_tokens`, or DeepSeek's `prompt_cache_hit_tokens`; cache writes from
 * `prompt_tokens_details.cache_write_tokens` where a vendor reports them (OpenRouter, our own translation).
 *
 * Some vendors (xAI) count reasoning tokens outside `completion_tokens`: their `total_tokens` equals
 * prompt + completion + reasoning. Then the reasoning is added to `outputTokens`, so that reasoning stays a
 * subset of output as `Usage` promises and nothing billed goes missing.
 */
export function usageFromOpenAiUsage(usage: JsonObject): Usage {
  const promptTokens = readNumber(usage, 'prompt_tokens') ?? 0;
  const completionTokens = readNumber(usage, 'completion_tokens') ?? 0;
  const totalTokens = readNumber(usage, 'total_tokens');
  const promptDetails = readObject(usage, 'prompt_tokens_details');
  const completionDetails = readObject(usage, 'completion_tokens_details');
  const cacheReadTokens =
    (promptDetails === undefined ? undefined : readNumber(promptDetails, 'cached_tokens')) ??
    readNumber(usage, 'prompt_cache_hit_tokens') ??
    0;
  const cacheWriteTokens = (promptDetails === undefined ? undefined : readNumber(promptDetails, 'cache_write_tokens')) ?? 0;
  const reasoningTokens =
    (completionDetails === undefined ? undefined : readNumber(completionDetails, 'reasoning_tokens')) ?? 0;
  const reasoningOutsideCompletion =
    reasoningTokens > 0 &&
    totalTokens !== undefined &&
    totalTokens !== promptTokens + completionTokens &&
    totalTokens === promptTokens + completionTokens + reasoningTokens;
  return {
    inputTokens: promptTokens,
    outputTokens: reasoningOutsideCompletion ? completionTokens + reasoningTokens : completionTokens,
    cacheReadTokens,
    cacheWriteTokens,
    reasoningTokens,
  };
}

/** Usage of a non-streaming chat completion body, or undefined when it reports none. */
export function usageFromOpenAiBody(body: unknown): Usage | undefined {
  if (!isJsonObject(body)) return undefined;
  const usage = readObject(body, 'usage');
  return usage === undefined ? undefined : usageFromOpenAiUsage(usage);
}

/**
 * Usage across a chat-completions stream. The usage arrives once: in a final `choices: []` chunk
 * (`stream_options.include_usage`), or inside the finish chunk (DeepSeek, Groq). Groq also nests it in
 * `x_groq.usage`, read only when the top-level one is missing. The last report wins.
 */
export function createOpenAiUsageAccumulator(): UsageAccumulator {
  let latest: Usage | undefined;
  return {
    observe(event) {
      const usage = readObject(event, 'usage') ?? readObject(readObject(event, 'x_groq') ?? {}, 'usage');
      if (usage !== undefined) latest = usageFromOpenAiUsage(usage);
    },
    result: () => latest,
  };
}
