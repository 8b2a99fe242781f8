import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Usage } from '../core/usage.js';
import { createAnthropicUsageAccumulator, usageFromAnthropicBody } from './anthropic-messages/usage.js';
import { createOpenAiUsageAccumulator, usageFromOpenAiBody } from './openai-chat/usage.js';
import {
  anthropicStreamRecordings,
  listRecordings,
  openAiStreamRecordings,
  readJsonObject,
  readStreamRecording,
} from './test-support/recordings.js';

function usage(inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0, reasoningTokens = 0): Usage {
  return { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens };
}

// Expected numbers read off each recording by hand (see the README's notes next to each file).
const openAiStreams: Record<string, Usage | undefined> = {
  'openai-text.chunks.txt': usage(16, 300),
  'issue-15789-step-1.chunks.txt': usage(58, 12),
  // total 93 = 15 + 78: the 64 reasoning tokens are inside completion_tokens.
  'azure-model-router.1.chunks.txt': usage(15, 78, 0, 0, 64),
  // total 513 = 291 + 26 + 196: xAI counts reasoning outside completion_tokens, so output is 26 + 196.
  'xai-tool-call.chunks.txt': usage(291, 222, 290, 0, 196),
  // usage rides in the finish chunk; cached_tokens and prompt_cache_hit_tokens agree (320).
  'deepseek-tool-call.chunks.txt': usage(339, 83, 320, 0, 39),
  'groq-tool-call.chunks.txt': usage(210, 15),
  'alibaba-tool-call.chunks.txt': usage(295, 22),
  'anthropic-fallback-tool-call.sse': undefined,
};

const openAiBodies: Record<string, Usage | undefined> = {
  'openai-text.json': usage(16, 363),
  'xai-tool-call.json': usage(291, 26 + 189, 244, 0, 189),
  'deepseek-tool-call.json': usage(339, 92, 320, 0, 48),
  'reasoning-model-legacy-parameter-error.json': undefined,
};

const anthropicStreams: Record<string, Usage | undefined> = {
  'anthropic-clear-thinking.1.chunks.txt': usage(69, 53),
  'anthropic-issue-15652-false.chunks.txt': usage(798, 110),
  'anthropic-issue-5942-cache-read.chunks.txt': usage(3 + 18639, 1, 18639, 0),
  'anthropic-issue-5942-cache-write.chunks.txt': usage(3 + 18639, 1, 0, 18639),
  // message_start says 43, message_delta 61: the delta wins.
  'anthropic-message-delta-input-tokens.chunks.txt': usage(61, 2),
  'anthropic-refusal.chunks.txt': usage(18, 5),
  'anthropic-text.chunks.txt': usage(12, 30),
  'anthropic-tool-no-args.chunks.txt': usage(565, 48),
  // message_delta reports only output_tokens; the input comes from message_start.
  'duplicate-message-start.chunks.txt': usage(17, 227),
};

const anthropicBodies: Record<string, Usage | undefined> = {
  'anthropic-text.json': usage(12, 29),
  'anthropic-json-tool.1.json': usage(1151, 87),
  'issue-13430-thinking-tool-call.json': usage(599, 59, 0, 0, 18),
  'anthropic-parallel-provider-client-tools.error.json': undefined,
};

describe('OpenAI usage', () => {
  const streams = openAiStreamRecordings();
  it('covers every stream recording', () => {
    expect(streams.map((path) => basename(path)).sort()).toEqual(Object.keys(openAiStreams).sort());
  });
  for (const path of streams) {
    it(`accumulates ${basename(path)}`, () => {
      const accumulator = createOpenAiUsageAccumulator();
      for (const chunk of readStreamRecording(path)) accumulator.observe(chunk);
      expect(accumulator.result()).toEqual(openAiStreams[basename(path)]);
    });
  }
  const bodies = [...listRecordings('openai', '.json'), ...listRecordings('openai-compatible', '.json')];
  it('covers every body recording', () => {
    expect(bodies.map((path) => basename(path)).sort()).toEqual(Object.keys(openAiBodies).sort());
  });
  for (const path of bodies) {
    it(`reads ${basename(path)}`, () => {
      expect(usageFromOpenAiBody(readJsonObject(path))).toEqual(openAiBodies[basename(path)]);
    });
  }
  it('reads DeepSeek prompt_cache_hit_tokens when cached_tokens is absent', () => {
    const body = { usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105, prompt_cache_hit_tokens: 64 } };
    expect(usageFromOpenAiBody(body)).toEqual(usage(100, 5, 64));
  });
  it('reads Groq x_groq.usage when the top-level usage is missing', () => {
    const accumulator = createOpenAiUsageAccumulator();
    accumulator.observe({ choices: [], x_groq: { usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } } });
    expect(accumulator.result()).toEqual(usage(7, 3));
  });
});

describe('Anthropic usage', () => {
  const streams = anthropicStreamRecordings();
  it('covers every stream recording', () => {
    expect(streams.map((path) => basename(path)).sort()).toEqual(Object.keys(anthropicStreams).sort());
  });
  for (const path of streams) {
    it(`accumulates ${basename(path)}`, () => {
      const accumulator = createAnthropicUsageAccumulator();
      for (const event of readStreamRecording(path)) accumulator.observe(event);
      expect(accumulator.result()).toEqual(anthropicStreams[basename(path)]);
    });
  }
  const bodies = listRecordings('anthropic', '.json');
  it('covers every body recording', () => {
    expect(bodies.map((path) => basename(path)).sort()).toEqual(Object.keys(anthropicBodies).sort());
  });
  for (const path of bodies) {
    it(`reads ${basename(path)}`, () => {
      expect(usageFromAnthropicBody(readJsonObject(path))).toEqual(anthropicBodies[basename(path)]);
    });
  }
  it('reports nothing for a stream without usage', () => {
    const accumulator = createAnthropicUsageAccumulator();
    accumulator.observe({ type: 'ping' });
    expect(accumulator.result()).toBeUndefined();
  });
});
