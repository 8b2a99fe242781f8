import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness((url) => ({ ...defaultConfig(url), cache: { enabled: true } }));
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

const chatRequests = () => harness.upstream.requests.filter((request) => request.format !== undefined).length;

describe('exact response cache', () => {
  it('answers a repeated deterministic request from the cache, free, and records what it saved', async () => {
    const request = { model: 'gpt-test', temperature: 0, messages: [{ role: 'user' as const, content: 'capital of France?' }] };
    const first = await client.chat.completions.create(request);
    const { data: second, response } = await client.chat.completions.create(request).withResponse();
    expect(chatRequests()).toBe(1);
    expect(response.headers.get('x-hermes-router-cache')).toBe('hit');
    expect(second.choices[0]?.message.content).toBe(first.choices[0]?.message.content);
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.decision.cache?.hit).toBe(true);
    expect(record?.costUsd).toBe(0);
    expect(record?.attempts).toHaveLength(0);
  });

  it('replays a cached stream as a stream', async () => {
    const request = { model: 'gpt-test', temperature: 0, stream: true as const, messages: [{ role: 'user' as const, content: 'tell me a fact' }] };
    const collect = async () => {
      let text = '';
      for await (const chunk of await client.chat.completions.create(request)) text += chunk.choices[0]?.delta?.content ?? '';
      return text;
    };
    const first = await collect();
    const second = await collect();
    expect(second).toBe(first);
    expect(second.length).toBeGreaterThan(10);
    expect(chatRequests()).toBe(1);
  });

  it('never caches requests with tools, tool loops, or a temperature that is not 0', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object' } } }];
    for (let index = 0; index < 2; index += 1) {
      await client.chat.completions.create({ model: 'gpt-test', temperature: 0, tools, messages: [{ role: 'user', content: 'with tools' }] });
      await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'default temperature' }] });
      await client.chat.completions.create({
        model: 'gpt-test',
        temperature: 0,
        messages: [
          { role: 'user', content: 'loop' },
          { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'result' },
        ],
      });
    }
    expect(chatRequests()).toBe(6);
  });

  it('keeps a turn that skips topic routing (/sd) apart from the same words routed by topic', async () => {
    const routed = { model: 'hermes-router', temperature: 0, messages: [{ role: 'user' as const, content: 'explain closures' }] };
    const skipped = { ...routed, messages: [{ role: 'user' as const, content: '/sd explain closures' }] };
    await client.chat.completions.create(routed);
    const { response } = await client.chat.completions.create(skipped).withResponse();
    expect(response.headers.get('x-hermes-router-cache')).toBeNull();
    expect(chatRequests()).toBe(2);
    // The prefix never goes upstream, and the skipped turn is cached under its own key.
    expect(JSON.stringify(harness.upstream.requests.at(-1)?.json)).not.toContain('/sd');
    const { response: again } = await client.chat.completions.create(skipped).withResponse();
    expect(again.headers.get('x-hermes-router-cache')).toBe('hit');
    expect(chatRequests()).toBe(2);
  });

  it('does not mix models: the same messages to another model go upstream', async () => {
    const messages = [{ role: 'user' as const, content: 'same question' }];
    await client.chat.completions.create({ model: 'gpt-test', temperature: 0, messages });
    await client.chat.completions.create({ model: 'big-test', temperature: 0, messages });
    expect(chatRequests()).toBe(2);
  });
});

describe('exact response cache on the Responses API', () => {
  it('answers a repeated deterministic Responses request from the cache, as a response object and as a stream', async () => {
    const request = { model: 'gpt-test', temperature: 0, input: 'capital of Italy?' };
    const first = await client.responses.create(request);
    const { data: second, response } = await client.responses.create(request).withResponse();
    expect(chatRequests()).toBe(1);
    expect(response.headers.get('x-hermes-router-cache')).toBe('hit');
    expect(second.output_text).toBe(first.output_text);
    // A new response of its own (the cache holds the chat answer, the id is minted per request).
    expect(second.id).not.toBe(first.id);

    const streamed = { ...request, input: 'capital of Spain?' };
    const collect = async () => (await client.responses.stream(streamed).finalResponse()).output_text;
    const fresh = await collect();
    const replayed = await collect();
    expect(replayed).toBe(fresh);
    expect(chatRequests()).toBe(2);
  });
});
