import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readRecording, type RecordingName } from '../recordings.js';
import { startFakeUpstream, type FakeUpstream } from './index.js';

let fake: FakeUpstream;
let client: OpenAI;

beforeAll(async () => {
  fake = await startFakeUpstream();
  client = new OpenAI({ apiKey: 'test-key', baseURL: `${fake.url}/v1`, maxRetries: 0, timeout: 30_000 });
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const messages = [{ role: 'user' as const, content: 'Hello' }];

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

interface AccumulatedCall {
  id: string;
  name: string;
  arguments: string;
}

/** Merges tool-call deltas by index the way a careful client must (ids may repeat as ""). */
function accumulateToolCalls(chunks: ChatCompletionChunk[]): AccumulatedCall[] {
  const calls = new Map<number, AccumulatedCall>();
  for (const chunk of chunks) {
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name = delta.function.name;
      call.arguments += delta.function?.arguments ?? '';
      calls.set(delta.index, call);
    }
  }
  return [...calls.values()];
}

describe('fake upstream, OpenAI format, driven by the openai SDK', () => {
  it('answers a non-streaming request with the recorded body', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages });
    const recorded = JSON.parse(readRecording('openai-text', 'json')) as { choices: [{ message: { content: string } }] };
    expect(completion.choices[0]?.message.content).toBe(recorded.choices[0].message.content);
    expect(completion.model).toBe('gpt-4.1-nano-2025-04-14');
    expect(fake.requests[0]?.path).toBe('/v1/chat/completions');
    expect(fake.requests[0]?.model).toBe('gpt-test');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('streams the recorded text chunks, finish reason and usage', async () => {
    const chunks = await collect(await client.chat.completions.create({ model: 'gpt-test', messages, stream: true }));
    expect(chunks).toHaveLength(303);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text.length).toBeGreaterThan(500);
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toBe(true);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 300 });
  });

  it('rewrites the model and omits usage when asked', async () => {
    fake.enqueue({ kind: 'recording', rewriteModel: true, omitUsage: true });
    const chunks = await collect(await client.chat.completions.create({ model: 'gpt-test', messages, stream: true }));
    expect(chunks).toHaveLength(302);
    expect(new Set(chunks.map((chunk) => chunk.model))).toEqual(new Set(['gpt-test']));
    expect(chunks.every((chunk) => chunk.usage === undefined || chunk.usage === null)).toBe(true);

    fake.enqueue({ kind: 'recording', rewriteModel: true, omitUsage: true });
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages });
    expect(completion.model).toBe('gpt-test');
    expect(completion.usage).toBeUndefined();
  });

  it('sends usage only when stream_options.include_usage asks, if told to behave like api.openai.com', async () => {
    fake.setScript({ respond: { kind: 'synthetic', text: 'one two', usageOnlyIfRequested: true } });
    const without = await collect(await client.chat.completions.create({ model: 'm', messages, stream: true }));
    expect(without.some((chunk) => chunk.usage)).toBe(false);
    expect(without.some((chunk) => chunk.choices.length === 0)).toBe(false);
    const withUsage = await collect(
      await client.chat.completions.create({ model: 'm', messages, stream: true, stream_options: { include_usage: true } }),
    );
    expect(withUsage.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
  });

  const toolRecordings: [RecordingName, string][] = [
    ['deepseek-tool-call', 'weather'],
    ['xai-tool-call', 'weather'],
    ['groq-tool-call', ''],
    ['alibaba-tool-call', ''],
    ['issue-15789-step-1', ''],
    ['anthropic-fallback-tool-call', ''],
  ];
  it.each(toolRecordings)('streams the %s tool call so its arguments parse', async (name, nameFragment) => {
    fake.enqueue({ kind: 'recording', name });
    const chunks = await collect(await client.chat.completions.create({ model: 'm', messages, stream: true }));
    const calls = accumulateToolCalls(chunks);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    for (const call of calls) {
      expect(call.name).toContain(nameFragment);
      expect(call.name.length).toBeGreaterThan(0);
      expect(() => JSON.parse(call.arguments)).not.toThrow();
    }
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'tool_calls')).toBe(true);
  });

  it.each(['deepseek-tool-call', 'xai-tool-call'] as const)('returns the %s JSON tool call', async (name) => {
    fake.enqueue({ kind: 'recording', name });
    const completion = await client.chat.completions.create({ model: 'm', messages });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('synthesizes a parallel tool-call stream the SDK accumulator accepts', async () => {
    fake.enqueue({
      kind: 'synthetic',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_time', arguments: { zone: 'Europe/Paris', format: '24h' } },
      ],
    });
    const runner = client.chat.completions.stream({ model: 'gpt-test', messages });
    const final = await runner.finalChatCompletion();
    const calls = final.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => (call.type === 'function' ? call.function.name : ''))).toEqual(['get_weather', 'get_time']);
    const parsed = calls.map((call) => (call.type === 'function' ? JSON.parse(call.function.arguments) : undefined));
    expect(parsed).toEqual([{ city: 'Paris' }, { zone: 'Europe/Paris', format: '24h' }]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.model).toBe('gpt-test');
  });

  it('synthesizes text plus a tool call, streaming and not', async () => {
    const behaviour = { kind: 'synthetic', text: 'Let me check.', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] } as const;
    fake.enqueue({ ...behaviour, toolCalls: [...behaviour.toolCalls] }, { ...behaviour, toolCalls: [...behaviour.toolCalls] });
    const chunks = await collect(await client.chat.completions.create({ model: 'gpt-test', messages, stream: true }));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Let me check.');
    expect(accumulateToolCalls(chunks)).toEqual([{ id: 'call_fake0001', name: 'lookup', arguments: '{"q":"x"}' }]);
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages });
    expect(completion.choices[0]?.message.content).toBe('Let me check.');
    expect(completion.choices[0]?.message.tool_calls).toHaveLength(1);
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
  });

  it('chooses behaviour per model from the script', async () => {
    fake.setScript({
      byModel: { 'gpt-test': { kind: 'error', status: 503 } },
      respond: (request) => (request.model === 'big-test' ? { kind: 'synthetic', text: 'big answer' } : undefined),
    });
    await expect(client.chat.completions.create({ model: 'gpt-test', messages })).rejects.toMatchObject({ status: 503 });
    const big = await client.chat.completions.create({ model: 'big-test', messages });
    expect(big.choices[0]?.message.content).toBe('big answer');
    const other = await client.chat.completions.create({ model: 'other', messages });
    expect(other.model).toBe('gpt-4.1-nano-2025-04-14');
    expect(fake.requestCount('/v1/chat/completions')).toBe(3);
  });

  it('surfaces a 429 with retry-after headers as RateLimitError', async () => {
    fake.enqueue({ kind: 'error', status: 429, retryAfter: 2, retryAfterMs: 1500 });
    const error: unknown = await client.chat.completions.create({ model: 'm', messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    if (!(error instanceof OpenAI.RateLimitError)) return;
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.headers.get('retry-after')).toBe('2');
    expect(error.headers.get('retry-after-ms')).toBe('1500');
  });

  it.each([
    [500, OpenAI.InternalServerError, undefined],
    [503, OpenAI.InternalServerError, undefined],
    [401, OpenAI.AuthenticationError, 'invalid_api_key'],
  ] as const)('surfaces a %i in the OpenAI error format', async (status, errorClass, code) => {
    fake.enqueue({ kind: 'error', status });
    const error: unknown = await client.chat.completions.create({ model: 'm', messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ status, code: code ?? null });
  });

  it('surfaces context-length and content-filter 400s with their codes', async () => {
    fake.enqueue(
      { kind: 'error', status: 400, error: 'context-length', promptTokens: 130_000, maxTokens: 128_000 },
      { kind: 'error', status: 400, error: 'content-filter' },
    );
    const contextError: unknown = await client.chat.completions.create({ model: 'm', messages }).catch((caught: unknown) => caught);
    expect(contextError).toBeInstanceOf(OpenAI.BadRequestError);
    expect(contextError).toMatchObject({ code: 'context_length_exceeded', param: 'messages', type: 'invalid_request_error' });
    expect(String((contextError as Error).message)).toContain('130000');
    await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toMatchObject({ status: 400, code: 'content_filter' });
  });

  it('replays the recorded 400 error body', async () => {
    fake.enqueue({ kind: 'recording', name: 'reasoning-model-legacy-parameter-error' });
    await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      param: 'max_tokens',
    });
  });

  it('lists the script models and serves deterministic embeddings (base64 and float)', async () => {
    fake.setScript({ models: ['gpt-test', 'big-test'] });
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['gpt-test', 'big-test']);

    const first = await client.embeddings.create({ model: 'embed', input: ['alpha', 'beta'] });
    const again = await client.embeddings.create({ model: 'embed', input: 'alpha', encoding_format: 'float' });
    expect(first.data).toHaveLength(2);
    expect(first.data[0]?.embedding).toHaveLength(8);
    const alpha = first.data[0]?.embedding ?? [];
    const alphaAgain = again.data[0]?.embedding ?? [];
    alpha.forEach((value, index) => expect(value).toBeCloseTo(alphaAgain[index] ?? Number.NaN, 6));
    expect(first.data[1]?.embedding).not.toEqual(alpha);
    expect(Math.hypot(...alpha)).toBeCloseTo(1, 5);
    expect(fake.requestCount('/v1/embeddings')).toBe(2);
    expect(fake.requestCount('/v1/models')).toBe(1);
  });
});
