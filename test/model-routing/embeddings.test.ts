import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { adminKey, setSwitch } from './admin-client.js';

let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness(
    (url) => ({
      providers: [
        // Nothing listens on port 9: every call is refused, as a provider that is down.
        { id: 'down', kind: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-down', models: [{ id: 'embed-a', embeddings: true }] },
        {
          id: 'local',
          kind: 'openai-compatible',
          base_url: `${url}/v1`,
          api_keys: ['sk-1', 'sk-2'],
          models: ['gpt-test', { id: 'embed-b', embeddings: true }, { id: 'embed-c', embeddings: true }],
        },
        { id: 'claude', kind: 'anthropic', base_url: url, api_key: 'sk-ant', models: ['claude-test', { id: 'claude-embed', embeddings: true }] },
      ],
      default_model: 'gpt-test',
      fallbacks: { 'embed-a': ['embed-c'] },
      resilience: { cooldown_ms: 60_000 },
      timeouts: { connect_ms: 1_000, first_byte_ms: 2_000, idle_ms: 1_000 },
    }),
    { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } },
  );
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'client', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

describe('POST /v1/embeddings', () => {
  it('goes only to embeddings models, in config order, failing over from a provider that is down', async () => {
    const { data, response } = await client.embeddings.create({ model: 'hermes-router', input: ['alpha', 'beta'] }).withResponse();
    expect(data.data).toHaveLength(2);
    expect(data.data[0]?.embedding.length).toBe(8);
    expect(response.headers.get('x-hermes-router-model')).toBe('local/embed-b');
    expect(harness.upstream.requests.map((request) => [request.path, request.model])).toEqual([['/v1/embeddings', 'embed-b']]);
    // The ledger sees it like a chat request: both attempts, the served model, provider-reported usage.
    const [record] = (await harness.observer.waitFor(1)).slice(-1);
    expect(record).toMatchObject({ endpoint: '/v1/embeddings', requestedModel: 'hermes-router', servedModel: 'embed-b', status: 200 });
    expect(record?.attempts.map((attempt) => [attempt.provider, attempt.errorClass])).toEqual([['down', 'connection'], ['local', undefined]]);
    expect(record?.usage?.inputTokens).toBeGreaterThan(0);
    expect(record?.decision.models?.policy).toBe('embeddings');
  });

  it('keeps a stable order: the same model answers every call while it is healthy', async () => {
    const models = new Set<string | null>();
    for (let index = 0; index < 4; index += 1) {
      const { response } = await client.embeddings.create({ model: 'hermes-router', input: `text ${index}` }).withResponse();
      models.add(response.headers.get('x-hermes-router-model'));
    }
    expect([...models]).toEqual(['local/embed-b']);
    // Keys still rotate underneath.
    expect(new Set(harness.upstream.requests.map((request) => request.headers.authorization))).toEqual(new Set(['Bearer sk-1', 'Bearer sk-2']));
  });

  it('a named model gets it with its fallbacks, and its dimensions pass through', async () => {
    const named = await client.embeddings.create({ model: 'embed-c', input: 'x', dimensions: 4 }).withResponse();
    expect(named.response.headers.get('x-hermes-router-model')).toBe('local/embed-c');
    expect(named.data.data[0]?.embedding.length).toBe(4);
    const chain = await client.embeddings.create({ model: 'embed-a', input: 'x' }).withResponse();
    expect(chain.response.headers.get('x-hermes-router-model')).toBe('local/embed-c');
    expect(chain.response.headers.get('x-hermes-router-route')).toBe('fallback');
  });

  it('refuses chat models and unknown names', async () => {
    await expect(client.embeddings.create({ model: 'gpt-test', input: 'x' })).rejects.toMatchObject({ status: 404 });
  });

  it('skips a switched-off embeddings model at once, and 503s when all are off', async () => {
    expect((await setSwitch(harness.gateway.url, { provider: 'local', model: 'embed-b', enabled: false })).status).toBe(200);
    const { response } = await client.embeddings.create({ model: 'hermes-router', input: 'x' }).withResponse();
    expect(response.headers.get('x-hermes-router-model')).toBe('local/embed-c');
    await setSwitch(harness.gateway.url, { provider: 'local', model: 'embed-c', enabled: false });
    await setSwitch(harness.gateway.url, { provider: 'down', model: 'embed-a', enabled: false });
    await expect(client.embeddings.create({ model: 'hermes-router', input: 'x' })).rejects.toMatchObject({ status: 503 });
    for (const [provider, model] of [['local', 'embed-b'], ['local', 'embed-c'], ['down', 'embed-a']] as const) {
      await setSwitch(harness.gateway.url, { provider, model, enabled: true });
    }
  });

  it('embeddings models are never chat candidates', async () => {
    const response = await client.chat.completions.create({ model: 'hermes-router', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(['local/gpt-test', 'claude/claude-test']).toContain(response.response.headers.get('x-hermes-router-model'));
  });
});

describe('chat with an embeddings model', () => {
  it('is refused with a pointer to /v1/embeddings', async () => {
    await expect(client.chat.completions.create({ model: 'embed-b', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('/v1/embeddings'),
    });
  });
});
