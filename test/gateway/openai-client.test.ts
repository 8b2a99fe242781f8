import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness();
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'client-key', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

function lastUpstreamBody(): Record<string, unknown> {
  return lastUpstreamRequest(harness).json as Record<string, unknown>;
}

describe('OpenAI client → OpenAI-compatible provider', () => {
  it('answers a plain request with the recorded body and the routing headers', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toMatch(/\S/);
    expect(data.object).toBe('chat.completion');
    expect(response.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    expect(response.headers.get('x-hermes-router-request-id')).toMatch(/^hr_/);
    expect(Number(response.headers.get('x-hermes-router-overhead-ms'))).toBeGreaterThanOrEqual(0);
    // The provider key replaces the client's; the client's never leaves the gateway.
    const upstream = harness.upstream.requests.at(-1);
    expect(upstream?.headers.authorization).toMatch(/^Bearer sk-local-/);
  });

  it('streams with include_usage when the client asks, ending with [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hello' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.length).toBeGreaterThan(20);
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    const [record] = await harness.observer.waitFor(1).then((records) => records.slice(-1));
    expect(record?.usage?.inputTokens).toBe(usage?.prompt_tokens);
    expect(record?.usage?.outputTokens).toBe(usage?.completion_tokens);
  });

  it('asks upstream for usage when the client did not, and hides that extra chunk from the client', async () => {
    const before = harness.observer.records.length;
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'hello' }],
    });
    let sawUsageChunk = false;
    for await (const chunk of stream) if (chunk.choices.length === 0 || chunk.usage) sawUsageChunk = true;
    expect(sawUsageChunk).toBe(false);
    expect(lastUpstreamBody().stream_options).toEqual({ include_usage: true });
    const records = await harness.observer.waitFor(before + 1);
    expect(records.at(-1)?.usage?.inputTokens).toBeGreaterThan(0);
    expect(records.at(-1)?.usageEstimated).toBe(false);
  });

  it('relays a streamed tool call whose arguments arrive in fragments', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'deepseek-tool-call' });
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }],
    });
    let name = '';
    let argumentsText = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta?.tool_calls?.[0];
      name += call?.function?.name ?? '';
      argumentsText += call?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(name).toBe('weather');
    expect(JSON.parse(argumentsText)).toHaveProperty('location');
    expect(finish).toBe('tool_calls');
  });

  it('relays parallel tool calls, non-streaming and streaming', async () => {
    const toolCalls = [
      { name: 'read_file', arguments: { path: 'a.txt' } },
      { name: 'read_file', arguments: { path: 'b.txt' } },
    ];
    harness.upstream.enqueue({ kind: 'synthetic', toolCalls });
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'read both' }],
    });
    const calls = completion.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => (call.type === 'function' ? JSON.parse(call.function.arguments).path : ''))).toEqual(['a.txt', 'b.txt']);

    harness.upstream.enqueue({ kind: 'synthetic', toolCalls, stream: true });
    const stream = await client.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'read both' }] });
    const streamed = new Map<number, string>();
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) {
        streamed.set(call.index, (streamed.get(call.index) ?? '') + (call.function?.arguments ?? ''));
      }
    }
    expect([...streamed.values()].map((text) => JSON.parse(text).path)).toEqual(['a.txt', 'b.txt']);
  });

  it('passes image parts, tool results, response_format and reasoning fields through untouched', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is in this picture?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'vision', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
    ];
    await client.chat.completions.create({
      model: 'gpt-test',
      messages,
      response_format: { type: 'json_object' },
      reasoning_effort: 'low',
      // An extension field the gateway does not know must survive.
      ...({ vendor_extension: { keep: [1, 2, 3] } } as object),
    });
    const body = lastUpstreamBody();
    expect(body.messages).toEqual(messages);
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.reasoning_effort).toBe('low');
    expect(body.vendor_extension).toEqual({ keep: [1, 2, 3] });
  });

  it('resolves the alias and provider-qualified names', async () => {
    await client.chat.completions.create({ model: 'hermes-router', messages: [{ role: 'user', content: 'x' }] });
    expect(lastUpstreamBody().model).toBe('gpt-test');
    await client.chat.completions.create({ model: 'local/big-test', messages: [{ role: 'user', content: 'x' }] });
    expect(lastUpstreamBody().model).toBe('big-test');
  });

  it('lists models in the OpenAI format', async () => {
    const models = await client.models.list();
    const ids = models.data.map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining(['hermes-router', 'gpt-test', 'big-test', 'claude-test', 'local/gpt-test', 'claude/claude-test']));
  });
});
