import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

/**
 * Per-provider request shaping: a provider or model entry adds body members and headers and drops members its
 * API rejects; a failover never carries a field one provider kind owns (OpenRouter's routing preferences) to another.
 */
let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness((url) => ({
    providers: [
      { id: 'router', kind: 'openrouter', base_url: `${url}/v1`, api_key: 'sk-or', models: ['gpt-test'] },
      {
        id: 'local',
        kind: 'openai-compatible',
        base_url: `${url}/v1`,
        api_key: 'sk-local',
        extra_body: { seed: 7, top_k: 1 },
        drop_fields: ['logit_bias'],
        models: [{ id: 'big-test', extra_body: { top_k: 5 }, headers: { 'x-title': 'hermes-router', authorization: 'Bearer not-this' }, drop_fields: ['user'] }],
      },
    ],
    default_model: 'gpt-test',
    fallbacks: { 'gpt-test': ['big-test'] },
    // A 1 ms rest: the first test's 503 must not keep gpt-test resting for the later ones.
    resilience: { cooldown_ms: 1, breaker: { min_calls: 100 } },
  }));
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

const openRouterFields = { provider: { order: ['deepinfra'], allow_fallbacks: false }, transforms: ['middle-out'], route: 'fallback' };

function sent(model: string): { json: Record<string, unknown>; headers: Record<string, string | string[] | undefined> } {
  const request = harness.upstream.requests.find((received) => received.model === model);
  if (!request) throw new Error(`nothing was sent for ${model}`);
  return { json: request.json as Record<string, unknown>, headers: request.headers };
}

describe('request shaping', () => {
  it("OpenRouter's provider, transforms and route reach OpenRouter, and never the provider a failover goes to", async () => {
    harness.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
    const { response } = await client.chat.completions
      .create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], ...openRouterFields } as never)
      .withResponse();
    expect(response.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect(sent('gpt-test').json).toMatchObject(openRouterFields);
    const fallback = sent('big-test').json;
    for (const field of Object.keys(openRouterFields)) expect(fallback).not.toHaveProperty(field);
    expect(fallback.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('extra_body (the model entry over the provider), model headers, drop_fields; the key is never replaced', async () => {
    await client.chat.completions.create({ model: 'big-test', messages: [{ role: 'user', content: 'hi' }], logit_bias: { '50256': -100 }, user: 'someone', temperature: 0.2 });
    const { json, headers } = sent('big-test');
    expect(json).toMatchObject({ seed: 7, top_k: 5, temperature: 0.2 });
    expect(json).not.toHaveProperty('logit_bias');
    expect(json).not.toHaveProperty('user');
    expect(headers['x-title']).toBe('hermes-router');
    expect(headers.authorization).toBe('Bearer sk-local');
  });

  it('a provider without shaping gets the client body as it was', async () => {
    await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], logit_bias: { '50256': -100 }, user: 'someone' });
    const { json, headers } = sent('gpt-test');
    expect(json).toMatchObject({ logit_bias: { '50256': -100 }, user: 'someone' });
    expect(json).not.toHaveProperty('seed');
    expect(headers['x-title']).toBeUndefined();
  });
});
