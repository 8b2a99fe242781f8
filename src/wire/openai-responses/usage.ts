import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { Usage } from '../../core/usage.js';
import { readNumber, readObject } from '../json-read.js';
import type { UsageAccumulator } from '../usage-accumulator.js';

/**
 * A Responses `usage`: `input_tokens` is the whole prompt (cached tokens inside, in
 * `input_tokens_details.cached_tokens`), `output_tokens` includes `output_tokens_details.reasoning_tokens`.
 */
export function usageFromResponsesUsage(usage: JsonObject): Usage {
  return {
    inputTokens: readNumber(usage, 'input_tokens') ?? 0,
    outputTokens: readNumber(usage, 'output_tokens') ?? 0,
    cacheReadTokens: readNumber(readObject(usage, 'input_tokens_details') ?? {}, 'cached_tokens') ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: readNumber(readObject(usage, 'output_tokens_details') ?? {}, 'reasoning_tokens') ?? 0,
  };
}

/** Usage of a response object, or undefined when it reports none. */
export function usageFromResponsesBody(body: unknown): Usage | undefined {
  if (!isJsonObject(body)) return undefined;
  const usage = readObject(body, 'usage');
  return usage === undefined ? undefined : usageFromResponsesUsage(usage);
}

/** The usage of the terminal event (`response.completed`, `.incomplete`, `.failed`), which carries the whole response. */
export function createResponsesUsageAccumulator(): UsageAccumulator {
  let latest: Usage | undefined;
  return {
    observe(event) {
      const usage = readObject(readObject(event, 'response') ?? {}, 'usage');
      if (usage !== undefined) latest = usageFromResponsesUsage(usage);
    },
    result: () => latest,
  };
}
