import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { promptCacheKey } from '../../src/prompt-cache/optimize.js';
import { FakePromptCache } from '../support/fake-upstream/index.js';
import type { ReceivedRequest } from '../support/fake-upstream/index.js';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Anthropic.Tool.InputSchema };
}

const hermesTools = (JSON.parse(readFileSync(new URL('../fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as (OpenAiTool & { toolset: string })[]).map(
  ({ toolset: _toolset, ...tool }) => ({ name: tool.function.name, description: tool.function.description, input_schema: tool.function.parameters }),
);
const system = `You are Hermes, a careful agent. ${'Follow the house rules. '.repeat(200)}`;

function configFor(url: string, promptCache: Record<string, unknown> = {}): ConfigInput {
  return {
    providers: [
      { id: 'claude', kind: 'anthropic', base_url: url, api_keys: ['sk-ant-a', 'sk-ant-b'], models: ['claude-test'] },
      { id: 'openai', kind: 'openai', base_url: `${url}/v1`, api_key: 'sk-openai', models: ['gpt-test'] },
      { id: 'router', kind: 'openrouter', base_url: `${url}/v1`, api_key: 'sk-or', models: [{ id: 'sonnet', upstream_id: 'anthropic/claude-sonnet-4.5' }] },
    ],
    default_model: 'claude-test',
    // The first turn's tools are the whole Hermes surface: these tests are about caching, not narrowing.
    tool_routing: { mode: 'off' },
    prompt_cache: promptCache,
  };
}

function json(request: ReceivedRequest | undefined): Record<string, unknown> {
  return (request?.json ?? {}) as Record<string, unknown>;
}

let harness: Harness;
let anthropic: Anthropic;
const cache = new FakePromptCache();

beforeAll(async () => {
  // Turns of these tests come milliseconds apart: never "minutes apart", whatever the machine's load.
  harness = await startHarness((url) => configFor(url, { long_ttl_after_gap_ms: 50 * 60_000 }), {}, { promptCache: cache });
  anthropic = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.upstream.reset();
  harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'Done.' } });
  cache.clear();
});

/** A session of `turns` user turns, one request each, with the session id in a header. */
async function converse(sessionId: string, turns: string[]): Promise<Anthropic.Message[]> {
  const messages: Anthropic.MessageParam[] = [];
  const replies: Anthropic.Message[] = [];
  for (const text of turns) {
    messages.push({ role: 'user', content: text });
    const reply = await anthropic.messages.create(
      { model: 'claude-test', max_tokens: 256, system, tools: hermesTools, messages: [...messages] },
      { headers: { 'x-session-id': sessionId } },
    );
    replies.push(reply);
    messages.push({ role: 'assistant', content: reply.content.map((block) => (block.type === 'text' ? { type: 'text' as const, text: block.text } : { type: 'text' as const, text: '' })) });
  }
  return replies;
}

describe('prompt-cache optimizer, Anthropic upstream', () => {
  it('puts breakpoints at the end of the tools, the system prompt and the latest user turn, byte-stable across turns, so each turn reads the last', async () => {
    const replies = await converse('s-breakpoints', ['open the README', 'now summarise it', 'and list the open questions']);
    const bodies = harness.upstream.requests.map(json);
    for (const body of bodies) {
      const tools = body.tools as Record<string, unknown>[];
      expect(tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(tools.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
      expect((body.system as Record<string, unknown>[]).at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      const messages = body.messages as { role: string; content: Record<string, unknown>[] | string }[];
      const latest = messages.at(-1)?.content as Record<string, unknown>[];
      expect(latest.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(JSON.stringify(body).match(/cache_control/g)?.length ?? 0).toBeLessThanOrEqual(4);
    }
    // Tools and system: the same bytes on every turn.
    expect(new Set(bodies.map((body) => JSON.stringify([body.tools, body.system]))).size).toBe(1);
    // Each turn's messages are the previous turn's bytes (apart from the markers, which move) and the new ones.
    const stripped = (body: Record<string, unknown>) => JSON.stringify(body.messages).replace(/,"cache_control":\{"type":"ephemeral"\}/g, '');
    expect(stripped(bodies[2]!).startsWith(stripped(bodies[1]!).slice(0, -1))).toBe(true);
    // The fake provider bills it: the first turn writes, every later turn reads everything before its new part.
    expect(replies[0]?.usage.cache_read_input_tokens).toBe(0);
    expect(replies[0]?.usage.cache_creation_input_tokens).toBeGreaterThan(10_000);
    for (const reply of replies.slice(1)) {
      expect(reply.usage.cache_read_input_tokens).toBeGreaterThan(10_000);
      expect(reply.usage.cache_creation_input_tokens).toBeLessThan(100);
    }
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.decision.promptCache).toMatchObject({ applied: 'breakpoints', ttl: '5m', breakpoints: ['tools', 'system', 'latest_user', 'previous_user'] });
  });

  it('never alters a client that sets its own cache_control', async () => {
    const body = {
      model: 'claude-test',
      max_tokens: 256,
      system: [{ type: 'text' as const, text: system, cache_control: { type: 'ephemeral' as const } }],
      tools: hermesTools,
      messages: [{ role: 'user' as const, content: 'hello' }],
    };
    const { response } = await anthropic.messages.create(body, { headers: { 'x-session-id': 's-client-hints' } }).withResponse();
    const sent = json(harness.upstream.requests.at(-1));
    expect(sent.system).toEqual(body.system);
    expect(sent.tools).toEqual(body.tools);
    expect(sent.messages).toEqual(body.messages);
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(1);
    expect(response.headers.get('x-hermes-router-prompt-cache')).toBe('client_hints');
  });

  it('chooses the 1-hour TTL for a session whose turns are minutes apart, and reports it', async () => {
    // Here 300 ms stands for minutes: a 400 ms pause between turns is a slow session.
    const slow = await startHarness((url) => configFor(url, { long_ttl_after_gap_ms: 300 }), {}, { promptCache: new FakePromptCache() });
    try {
      slow.upstream.setScript({ respond: { kind: 'synthetic', text: 'Done.' } });
      const client = new Anthropic({ baseURL: slow.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
      const messages: Anthropic.MessageParam[] = [];
      const replies: { usage: Anthropic.Usage; header: string | null }[] = [];
      for (const text of ['first question', 'second question after a pause', 'third']) {
        messages.push({ role: 'user', content: text });
        const { data, response } = await client.messages
          .create({ model: 'claude-test', max_tokens: 64, system, tools: hermesTools, messages: [...messages] }, { headers: { 'x-session-id': 's-slow' } })
          .withResponse();
        replies.push({ usage: data.usage, header: response.headers.get('x-hermes-router-prompt-cache') });
        messages.push({ role: 'assistant', content: 'Done.' });
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
      const ttls = slow.upstream.requests.map((request) => ((json(request).tools as Record<string, unknown>[]).at(-1)?.cache_control as { ttl?: string }).ttl);
      expect(ttls).toEqual([undefined, '1h', '1h']);
      expect(replies.map((reply) => reply.header)).toEqual([
        'breakpoints=tools,system,latest_user; ttl=5m',
        'breakpoints=tools,system,latest_user,previous_user; ttl=1h',
        'breakpoints=tools,system,latest_user,previous_user; ttl=1h',
      ]);
      // The provider reports the 1-hour writes as such.
      const creation = replies[1]?.usage.cache_creation;
      expect(creation?.ephemeral_1h_input_tokens).toBeGreaterThan(0);
      expect(creation?.ephemeral_1h_input_tokens).toBe(replies[1]?.usage.cache_creation_input_tokens);
      const record = (await slow.observer.waitFor(slow.upstream.requests.length)).at(-1);
      expect(record?.decision.promptCache?.ttl).toBe('1h');
    } finally {
      await slow.close();
    }
  });

  it('keeps a session on the key that holds its cache while the cache is warm (keys rotate otherwise)', async () => {
    const keyOf = (request: ReceivedRequest) => String(request.headers['x-api-key'] ?? request.headers.authorization);
    await converse('s-affinity', ['one', 'two', 'three', 'four']);
    const sessionKeys = harness.upstream.requests.map(keyOf);
    expect(new Set(sessionKeys).size).toBe(1);
    // Fresh sessions in between still rotate over both keys.
    harness.upstream.reset();
    harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'Done.' } });
    for (let index = 0; index < 4; index += 1) await converse(`s-other-${index}`, ['hi']);
    expect(new Set(harness.upstream.requests.map(keyOf)).size).toBe(2);
    await converse('s-affinity-b', ['a']);
    const first = keyOf(harness.upstream.requests.at(-1)!);
    for (let index = 0; index < 3; index += 1) await converse(`s-filler-${index}`, ['x']);
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'b' }];
    const reply = await anthropic.messages.create({ model: 'claude-test', max_tokens: 64, system, tools: hermesTools, messages }, { headers: { 'x-session-id': 's-affinity-b' } });
    expect(keyOf(harness.upstream.requests.at(-1)!)).toBe(first);
    expect(reply.usage.cache_read_input_tokens).toBeGreaterThan(10_000);
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.decision.promptCache?.keyAffinity).toBe(true);
  });
});

describe('prompt-cache optimizer, OpenAI-format upstreams', () => {
  let openai: OpenAI;
  beforeAll(() => {
    openai = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
  });

  it('OpenAI gets prompt_cache_key = the session (opaque, stable); a client that sets its own keeps it', async () => {
    for (const text of ['hi', 'again']) {
      await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'system', content: system }, { role: 'user', content: text }] }, { headers: { 'x-session-id': 's-openai' } });
    }
    const keys = harness.upstream.requests.map((request) => json(request).prompt_cache_key);
    expect(keys).toEqual([promptCacheKey('s-openai'), promptCacheKey('s-openai')]);
    expect(String(keys[0])).not.toContain('s-openai');
    await openai.chat.completions.create({ model: 'gpt-test', prompt_cache_key: 'mine', messages: [{ role: 'user', content: 'x' }] }, { headers: { 'x-session-id': 's-openai' } });
    expect(json(harness.upstream.requests.at(-1)).prompt_cache_key).toBe('mine');
  });

  it('an Anthropic model behind OpenRouter gets breakpoints as content-part cache_control', async () => {
    await openai.chat.completions.create({ model: 'sonnet', messages: [{ role: 'system', content: system }, { role: 'user', content: 'hello there' }] }, { headers: { 'x-session-id': 's-router' } });
    const body = json(harness.upstream.requests.at(-1)) as { messages: { role: string; content: { type: string; text: string; cache_control?: unknown }[] }[]; prompt_cache_key?: unknown };
    expect(body.messages[0]?.content).toEqual([{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }]);
    expect(body.messages[1]?.content).toEqual([{ type: 'text', text: 'hello there', cache_control: { type: 'ephemeral' } }]);
    expect(body.prompt_cache_key).toBeUndefined();
  });

  it('is switched off by prompt_cache.enabled: false', async () => {
    const off = await startHarness((url) => configFor(url, { enabled: false }));
    try {
      off.upstream.setScript({ respond: { kind: 'synthetic', text: 'Done.' } });
      const client = new Anthropic({ baseURL: off.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
      await client.messages.create({ model: 'claude-test', max_tokens: 64, system, tools: hermesTools, messages: [{ role: 'user', content: 'hi' }] });
      expect(JSON.stringify(off.upstream.requests.at(-1)?.json)).not.toContain('cache_control');
    } finally {
      await off.close();
    }
  });
});
