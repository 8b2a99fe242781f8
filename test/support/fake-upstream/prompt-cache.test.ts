import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakePromptCache, startFakeUpstream, type FakeUpstream } from './index.js';

let clock = 1_000_000;
const cache = new FakePromptCache({ now: () => clock });
let fake: FakeUpstream;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  fake = await startFakeUpstream({ promptCache: cache });
  fake.setScript({ respond: { kind: 'synthetic', text: 'ok' } });
  anthropic = new Anthropic({ apiKey: 'key-a', baseURL: fake.url, maxRetries: 0, timeout: 30_000 });
  openai = new OpenAI({ apiKey: 'key-a', baseURL: `${fake.url}/v1`, maxRetries: 0, timeout: 30_000 });
});
beforeEach(() => cache.clear());
afterAll(() => fake.close());

/** About 2,000 tokens of instructions: above every minimum cacheable length. */
const longSystem = Array.from({ length: 400 }, (_, index) => `Rule ${index}: answer carefully.`).join(' ');
const tool = { name: 'read_file', description: 'Read a file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } };

function systemWith(ttl?: '1h'): Anthropic.TextBlockParam[] {
  return [{ type: 'text', text: longSystem, cache_control: ttl ? { type: 'ephemeral', ttl } : { type: 'ephemeral' } }];
}

describe('FakePromptCache, Anthropic format (per cache_control breakpoint)', () => {
  it('writes the prefix up to a breakpoint once, then reads it; the rest is plain input', async () => {
    const first = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, tools: [tool], system: systemWith(), messages: [{ role: 'user', content: 'hello' }] });
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(first.usage.input_tokens).toBeGreaterThan(0);
    const second = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, tools: [tool], system: systemWith(), messages: [{ role: 'user', content: 'something else entirely' }] });
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
  });

  it('caches nothing without cache_control', async () => {
    for (let turn = 0; turn < 2; turn += 1) {
      const reply = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, tools: [tool], system: longSystem, messages: [{ role: 'user', content: 'hello' }] });
      expect(reply.usage.cache_read_input_tokens).toBe(0);
      expect(reply.usage.cache_creation_input_tokens).toBe(0);
    }
  });

  it('a breakpoint moved to the latest turn reads the previous turn’s entry and writes only the new part', async () => {
    const turn1: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'open the README', cache_control: { type: 'ephemeral' } }] }];
    const first = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, system: longSystem, messages: turn1 });
    const written = first.usage.cache_creation_input_tokens ?? 0;
    expect(written).toBeGreaterThan(1024);
    const turn2: Anthropic.MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'open the README' }] },
      { role: 'assistant', content: 'Here it is.' },
      { role: 'user', content: [{ type: 'text', text: 'now summarise it', cache_control: { type: 'ephemeral' } }] },
    ];
    const second = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, system: longSystem, messages: turn2 });
    expect(second.usage.cache_read_input_tokens).toBe(written);
    expect(second.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(second.usage.cache_creation_input_tokens).toBeLessThan(50);
    expect(second.usage.input_tokens).toBe(0);
  });

  it('the 1-hour TTL is reported as such and outlives a 5-minute entry', async () => {
    const oneHour = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, system: systemWith('1h'), messages: [{ role: 'user', content: 'a' }] });
    const creation = oneHour.usage.cache_creation as { ephemeral_1h_input_tokens: number; ephemeral_5m_input_tokens: number };
    expect(creation.ephemeral_1h_input_tokens).toBe(oneHour.usage.cache_creation_input_tokens);
    expect(creation.ephemeral_5m_input_tokens).toBe(0);
    await anthropic.messages.create({ model: 'claude-other', max_tokens: 64, system: systemWith(), messages: [{ role: 'user', content: 'a' }] });
    clock += 10 * 60_000;
    const later1h = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, system: systemWith('1h'), messages: [{ role: 'user', content: 'a' }] });
    expect(later1h.usage.cache_read_input_tokens).toBe(oneHour.usage.cache_creation_input_tokens);
    const later5m = await anthropic.messages.create({ model: 'claude-other', max_tokens: 64, system: systemWith(), messages: [{ role: 'user', content: 'a' }] });
    expect(later5m.usage.cache_read_input_tokens).toBe(0);
    expect(later5m.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
  });

  it('a prefix below the minimum length is not cached, and caches are per key and model', async () => {
    const short = { model: 'claude-test', max_tokens: 64, system: [{ type: 'text' as const, text: 'Be brief.', cache_control: { type: 'ephemeral' as const } }], messages: [{ role: 'user' as const, content: 'a' }] };
    expect((await anthropic.messages.create(short)).usage.cache_creation_input_tokens).toBe(0);
    await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, system: systemWith(), messages: [{ role: 'user', content: 'a' }] });
    const otherKey = new Anthropic({ apiKey: 'key-b', baseURL: fake.url, maxRetries: 0, timeout: 30_000 });
    const reply = await otherKey.messages.create({ model: 'claude-test', max_tokens: 64, system: systemWith(), messages: [{ role: 'user', content: 'a' }] });
    expect(reply.usage.cache_read_input_tokens).toBe(0);
  });
});

describe('FakePromptCache, OpenAI format (automatic prefixes)', () => {
  const system = { role: 'system' as const, content: longSystem };

  it('caches prompts of 1,024+ tokens automatically, reporting cached_tokens in 128-token steps', async () => {
    const first = await openai.chat.completions.create({ model: 'gpt-test', messages: [system, { role: 'user', content: 'hello' }] });
    expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const second = await openai.chat.completions.create({ model: 'gpt-test', messages: [system, { role: 'user', content: 'a different question' }] });
    const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect((cached - 1024) % 128).toBe(0);
    expect(cached).toBeLessThanOrEqual(second.usage?.prompt_tokens ?? 0);
    // Only the final differing message is beyond the cached part (less than one step plus that message).
    expect((second.usage?.prompt_tokens ?? 0) - cached).toBeLessThan(128 + 20);
  });

  it('short prompts are never cached, and a changed prefix reads nothing', async () => {
    for (let turn = 0; turn < 2; turn += 1) {
      const reply = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
      expect(reply.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    }
    await openai.chat.completions.create({ model: 'gpt-test', messages: [system, { role: 'user', content: 'a' }] });
    const changed = await openai.chat.completions.create({ model: 'gpt-test', tools: [{ type: 'function', function: { name: 'web_search', parameters: {} } }], messages: [system, { role: 'user', content: 'a' }] });
    expect(changed.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it('entries expire after the retention period', async () => {
    await openai.chat.completions.create({ model: 'gpt-test', messages: [system, { role: 'user', content: 'a' }] });
    clock += 6 * 60_000;
    const reply = await openai.chat.completions.create({ model: 'gpt-test', messages: [system, { role: 'user', content: 'a' }] });
    expect(reply.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });
});
