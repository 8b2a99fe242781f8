import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness();
  client = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: 'client-key', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());


describe('Anthropic client → Anthropic provider', () => {
  it('answers a plain message, with the provider key and version header', async () => {
    const message = await client.messages.create({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.type).toBe('message');
    expect(message.content[0]?.type).toBe('text');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    const upstream = lastUpstreamRequest(harness);
    expect(upstream.path).toBe('/v1/messages');
    expect(upstream.headers['x-api-key']).toBe('sk-ant-test');
    expect(upstream.headers['anthropic-version']).toBeDefined();
  });

  it('streams text with named events and captures usage from message_start and message_delta', async () => {
    const before = harness.observer.records.length;
    const stream = client.messages.stream({ model: 'claude-test', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    const records = await harness.observer.waitFor(before + 1);
    expect(records.at(-1)?.usage?.inputTokens).toBe(final.usage.input_tokens);
    expect(records.at(-1)?.usage?.outputTokens).toBe(final.usage.output_tokens);
  });

  it('relays parallel tool_use blocks in a stream', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'anthropic-issue-15652-false' });
    const final = await client.messages
      .stream({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'go' }] })
      .finalMessage();
    const toolUses = final.content.filter((block) => block.type === 'tool_use');
    expect(toolUses.length).toBe(3);
    expect(final.stop_reason).toBe('tool_use');
  });

  it('keeps thinking blocks with their signature and cache_control on the way up', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'anthropic-clear-thinking' });
    const final = await client.messages
      .stream({
        model: 'claude-test',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'think', cache_control: { type: 'ephemeral' } }] },
        ],
      })
      .finalMessage();
    const thinking = final.content.find((block) => block.type === 'thinking');
    expect(thinking && 'signature' in thinking ? thinking.signature.length : 0).toBeGreaterThan(0);
    const body = lastUpstreamRequest(harness).json as { system: { cache_control?: unknown }[]; messages: { content: { cache_control?: unknown }[] }[] };
    expect(body.system[0]?.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages[0]?.content[0]?.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('is served under /anthropic/v1/messages for Hermes custom base URLs ending in /anthropic', async () => {
    const hermesStyle = new Anthropic({ baseURL: `${harness.anthropicBaseUrl}/anthropic`, apiKey: 'x', maxRetries: 0 });
    const message = await hermesStyle.messages.create({ model: 'claude-test', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content.length).toBeGreaterThan(0);
  });

  it('answers tool_result turns (non-streaming tool_use recording)', async () => {
    harness.upstream.enqueue({ kind: 'recording', name: 'anthropic-json-tool' });
    const message = await client.messages.create({
      model: 'claude-test',
      max_tokens: 256,
      tools: [{ name: 'json', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'json', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] },
      ],
    });
    expect(message.stop_reason).toBe('tool_use');
    const sent = lastUpstreamRequest(harness).json as { messages: unknown[] };
    expect(sent.messages).toHaveLength(3);
  });
});
