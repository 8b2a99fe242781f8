import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { Usage } from '../../core/usage.js';
import { readNumber, readObject } from '../json-read.js';
import type { UsageAccumulator } from '../usage-accumulator.js';

/** The raw Anthropic counters; `input_tokens` excludes both cache counters. */
interface AnthropicCounters {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  thinking: number;
}

function emptyCounters(): AnthropicCounters {
  return { input: 0, output: 0, cacheWrite: 0, cacheRead: 0, thinking: 0 };
}

/** Overwrites the counters a usage object reports and leaves the others as they were. */
function mergeCounters(counters: AnthropicCounters, usage: JsonObject): void {
  counters.input = readNumber(usage, 'input_tokens') ?? counters.input;
  counters.output = readNumber(usage, 'output_tokens') ?? counters.output;
  counters.cacheWrite = readNumber(usage, 'cache_creation_input_tokens') ?? counters.cacheWrite;
  counters.cacheRead = readNumber(usage, 'cache_read_input_tokens') ?? counters.cacheRead;
  const outputDetails = readObject(usage, 'output_tokens_details');
  if (outputDetails !== undefined) counters.thinking = readNumber(outputDetails, 'thinking_tokens') ?? counters.thinking;
}

/** `Usage.inputTokens` is the whole prompt, so Anthropic's three disjoint input counters are added up. */
function toUsage(counters: AnthropicCounters): Usage {
  return {
    inputTokens: counters.input + counters.cacheWrite + counters.cacheRead,
    outputTokens: counters.output,
    cacheReadTokens: counters.cacheRead,
    cacheWriteTokens: counters.cacheWrite,
    reasoningTokens: counters.thinking,
  };
}

export function usageFromAnthropicUsage(usage: JsonObject): Usage {
  const counters = emptyCounters();
  mergeCounters(counters, usage);
  return toUsage(counters);
}

/** Usage of a non-streaming Messages body, or undefined when it reports none. */
export function usageFromAnthropicBody(body: unknown): Usage | undefined {
  if (!isJsonObject(body)) return undefined;
  const usage = readObject(body, 'usage');
  return usage === undefined ? undefined : usageFromAnthropicUsage(usage);
}

/**
 * Usage across a Messages stream: `message_start` carries the input counters (and a provisional
 * `output_tokens`), `message_delta` the final output count. A counter present in `message_delta` wins over the
 * start's: the real API repeats the same input numbers there, and some Anthropic-compatible hosts only get
 * the input count right at the end.
 */
export function createAnthropicUsageAccumulator(): UsageAccumulator {
  let counters: AnthropicCounters | undefined;
  return {
    observe(event) {
      const type = event['type'];
      let usage: JsonObject | undefined;
      if (type === 'message_start') {
        const message = event['message'];
        usage = isJsonObject(message) ? readObject(message, 'usage') : undefined;
      } else if (type === 'message_delta') {
        usage = readObject(event, 'usage');
      }
      if (usage === undefined) return;
      counters ??= emptyCounters();
      mergeCounters(counters, usage);
    },
    result: () => (counters === undefined ? undefined : toUsage(counters)),
  };
}
