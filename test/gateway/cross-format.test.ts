import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  harness = await startHarness();
  openai = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());


describe('OpenAI client → Anthropic provider', () => {
  it('translates the request (system hoisted, max_tokens set) and the response', async () => {
    const completion = await openai.chat.completions.create({
      model: 'claude-test',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
    });
    const upstream = lastUpstreamRequest(harness);
    expect(upstream.path).toBe('/v1/messages');
    const body = upstream.json as Record<string, unknown>;
    expect(body.system).toBeDefined();
    expect(typeof body.max_tokens).toBe('number');
    const messages = body.messages as { role: string; content: unknown }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe('user');
    expect(JSON.stringify(messages[0]?.content)).toContain('hi');
    expect(JSON.stringify(body.system)).toContain('be brief');
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it('translates a streamed parallel tool use into OpenAI tool call deltas', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'anthropic-issue-15652-false' });
    const stream = await openai.chat.completions.create({
      model: 'claude-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'go' }],
      tools: [{ type: 'function', function: { name: 'anything', parameters: { type: 'object' } } }],
    });
    const calls = new Map<number, { name: string; args: string }>();
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) {
        const entry = calls.get(call.index) ?? { name: '', args: '' };
        entry.name += call.function?.name ?? '';
        entry.args += call.function?.arguments ?? '';
        calls.set(call.index, entry);
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(calls.size).toBe(3);
    for (const entry of calls.values()) expect(() => JSON.parse(entry.args)).not.toThrow();
    expect(finish).toBe('tool_calls');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('translates a tool call with no arguments into "{}"', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'anthropic-tool-no-args' });
    const stream = await openai.chat.completions.create({ model: 'claude-test', stream: true, messages: [{ role: 'user', content: 'go' }] });
    let args = '';
    for await (const chunk of stream) for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) args += call.function?.arguments ?? '';
    expect(JSON.parse(args)).toEqual({});
  });
});

describe('Anthropic client → OpenAI-compatible provider', () => {
  it('translates the request and a non-streamed tool call back into tool_use blocks', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'xai-tool-call' });
    const message = await anthropic.messages.create({
      model: 'gpt-test',
      max_tokens: 300,
      system: 'be brief',
      tools: [{ name: 'weather', input_schema: { type: 'object', properties: { location: { type: 'string' } } } }],
      messages: [{ role: 'user', content: 'weather in SF?' }],
    });
    const body = lastUpstreamRequest(harness).json as { messages: { role: string }[]; tools: { type: string }[] };
    expect(lastUpstreamRequest(harness).path).toBe('/v1/chat/completions');
    expect(body.messages[0]?.role).toBe('system');
    expect(body.tools[0]?.type).toBe('function');
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    expect(toolUse?.type === 'tool_use' ? toolUse.input : undefined).toBeTypeOf('object');
    expect(message.stop_reason).toBe('tool_use');
  });

  it('translates a stream with fragmented tool arguments (DeepSeek) into input_json_delta events', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'deepseek-tool-call' });
    const final = await anthropic.messages
      .stream({ model: 'gpt-test', max_tokens: 300, messages: [{ role: 'user', content: 'weather?' }] })
      .finalMessage();
    const toolUse = final.content.find((block) => block.type === 'tool_use');
    expect(toolUse?.type === 'tool_use' ? Object.keys(toolUse.input as object) : []).toContain('location');
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams plain text with a clean message_stop', async () => {
    const stream = anthropic.messages.stream({ model: 'gpt-test', max_tokens: 300, messages: [{ role: 'user', content: 'hi' }] });
    const final = await stream.finalMessage();
    const text = final.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(text.length).toBeGreaterThan(20);
    expect(final.stop_reason).toBe('end_turn');
  });
});
