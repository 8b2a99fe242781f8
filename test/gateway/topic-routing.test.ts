import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness((url) => {
    const base = defaultConfig(url);
    // Priced, so the cheapest-capable policy has a clear default (gpt-test) for the specialist to override.
    const local = {
      ...base.providers![0]!,
      models: [
        { id: 'gpt-test', prices: { input: 0.1, output: 0.4 } },
        { id: 'big-test', context_window: 200_000, prices: { input: 5, output: 15 } },
      ],
    };
    return {
      ...base,
      providers: [local, base.providers![1]!],
      topic_routing: { switch_confidence: 0.3, topics: { software_it: { model: 'big-test' } } },
    };
  });
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

const codingQuestion = 'My Python script throws a KeyError when I read the JSON config; how do I debug the dictionary access in this function?';

describe('topic routing in the request path', () => {
  it('sends a confident software question to its specialist', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'hermes-router', messages: [{ role: 'user', content: codingQuestion }] })
      .withResponse();
    expect(response.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect(response.headers.get('x-hermes-router-route')).toBe('topic');
    const record = (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
    expect(record?.decision.models?.topic).toBe('software_it');
  });

  it('a /sd prefix skips topic routing for the turn and is stripped before the request goes upstream', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'hermes-router', messages: [{ role: 'user', content: `/sd ${codingQuestion}` }] })
      .withResponse();
    expect(response.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    const sent = harness.upstream.requests.at(-1)?.json as { messages: { content: string }[] };
    expect(sent.messages.at(-1)?.content).toBe(codingQuestion);
  });

  it('leaves small talk on the default model', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'hermes-router', messages: [{ role: 'user', content: 'good morning! how was your weekend?' }] })
      .withResponse();
    expect(response.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
  });
});
