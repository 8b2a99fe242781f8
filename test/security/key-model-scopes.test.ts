import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { bearer, call } from './security-client.js';

/**
 * A key limited to some models or providers reaches only those, over every way a request picks its model:
 * a named model, a `provider/model` name, the router alias, a fallback chain, a topic route and embeddings.
 * A model the client named that the key may not use is refused (403), never answered by another one.
 */
const adminKey = 'scopes-admin-key-0123456789abcdef';
let harness: Harness;
let url: string;

beforeAll(async () => {
  harness = await startHarness(
    (upstreamUrl) => {
      const base = defaultConfig(upstreamUrl);
      const local = {
        ...base.providers![0]!,
        models: [
          { id: 'gpt-test', prices: { input: 0.1, output: 0.4 } },
          { id: 'big-test', context_window: 200_000, prices: { input: 5, output: 15 } },
          { id: 'embed-a', embeddings: true },
          { id: 'embed-b', embeddings: true },
        ],
      };
      return {
        ...base,
        providers: [local, base.providers![1]!],
        fallbacks: { 'gpt-test': ['big-test'], 'embed-a': ['embed-b'] },
        topic_routing: { switch_confidence: 0.3, topics: { software_it: { model: 'big-test' } } },
      };
    },
    { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } },
  );
  url = harness.gateway.url;
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

async function keyFor(limits: { models?: string[]; providers?: string[] }, scopes = ['chat', 'embeddings']): Promise<string> {
  const answer = await call(`${url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: { name: 'scoped', scopes, limits } });
  expect(answer.status).toBe(201);
  return (answer.body as { key: string }).key;
}

const chat = (key: string, model: string, content = 'hi') =>
  call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: { model, messages: [{ role: 'user', content }] } });
const embed = (key: string, model?: string) =>
  call(`${url}/v1/embeddings`, { method: 'POST', headers: bearer(key), json: { ...(model === undefined ? {} : { model }), input: 'alpha' } });

const codingQuestion = 'My Python script throws a KeyError when I read the JSON config; how do I debug the dictionary access in this function?';

describe('a key limited to models', () => {
  it('explicit model outside the list: 403 naming what it may use, and nothing goes upstream', async () => {
    const key = await keyFor({ models: ['gpt-test'] });
    const refused = await chat(key, 'local/big-test');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { type: 'permission_error' } });
    expect(refused.text).toContain('local/big-test');
    expect(refused.text).toContain('gpt-test');
    expect((await chat(key, 'big-test')).status).toBe(403);
    expect(harness.upstream.requestCount('/v1/chat/completions')).toBe(0);
  });

  it('explicit model inside the list is served, by its plain or provider/model name', async () => {
    const key = await keyFor({ models: ['local/gpt-test'] });
    for (const model of ['gpt-test', 'local/gpt-test']) {
      const served = await chat(key, model);
      expect(served.status).toBe(200);
      expect(served.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    }
  });

  it('a named model whose only fallback is allowed is still refused (the fallback is not a substitute)', async () => {
    const key = await keyFor({ models: ['local/big-test'] });
    const refused = await chat(key, 'gpt-test');
    expect(refused.status).toBe(403);
    expect(harness.upstream.requestCount('/v1/chat/completions')).toBe(0);
  });

  it('the router alias routes among the allowed models only, and a topic route outside the list falls to them', async () => {
    const key = await keyFor({ models: ['gpt-test'] });
    const topical = await chat(key, 'hermes-router', codingQuestion);
    expect(topical.status).toBe(200);
    expect(topical.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    expect(harness.upstream.requests.map((request) => request.model)).toEqual(['gpt-test']);
  });

  it('a topic route inside the list goes to the specialist', async () => {
    const key = await keyFor({ models: ['gpt-test', 'big-test'] });
    const topical = await chat(key, 'hermes-router', codingQuestion);
    expect(topical.status).toBe(200);
    expect(topical.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect(topical.headers.get('x-hermes-router-route')).toBe('topic');
  });

  it('the router alias with no allowed chat model: 403', async () => {
    const key = await keyFor({ models: ['embed-a'] });
    expect((await chat(key, 'hermes-router')).status).toBe(403);
  });

  it('a fallback outside the list is never tried: the primary failing gives the primary\'s error', async () => {
    const key = await keyFor({ models: ['gpt-test'] });
    harness.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
    const failed = await chat(key, 'gpt-test');
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(harness.upstream.requests.map((request) => request.model)).not.toContain('big-test');
  });

  it('a fallback inside the list serves when the primary fails', async () => {
    const key = await keyFor({ models: ['gpt-test', 'big-test'] });
    harness.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
    const served = await chat(key, 'gpt-test');
    expect(served.status).toBe(200);
    expect(served.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect(served.headers.get('x-hermes-router-route')).toBe('fallback');
  });
});

describe('a key limited to providers', () => {
  it('a model on another provider is refused; the alias stays on the allowed provider', async () => {
    const key = await keyFor({ providers: ['claude'] });
    expect((await chat(key, 'gpt-test')).status).toBe(403);
    const routed = await chat(key, 'hermes-router');
    expect(routed.status).toBe(200);
    expect(routed.headers.get('x-hermes-router-provider')).toBe('claude');
  });
});

describe('embeddings', () => {
  it('a named embeddings model outside the list: 403, not its allowed fallback', async () => {
    const key = await keyFor({ models: ['embed-b'] });
    expect((await embed(key, 'embed-a')).status).toBe(403);
    expect(harness.upstream.requestCount('/v1/embeddings')).toBe(0);
  });

  it('the allowed one is served by name, and with no model only allowed models are used', async () => {
    const key = await keyFor({ models: ['embed-b'] });
    const named = await embed(key, 'embed-b');
    expect(named.status).toBe(200);
    expect(named.headers.get('x-hermes-router-model')).toBe('local/embed-b');
    const unnamed = await embed(key);
    expect(unnamed.status).toBe(200);
    expect(unnamed.headers.get('x-hermes-router-model')).toBe('local/embed-b');
  });

  it('an embeddings fallback outside the list is never tried', async () => {
    const key = await keyFor({ models: ['embed-a'] });
    harness.upstream.setScript({ embeddings: { fault: { kind: 'error', status: 503 } } });
    const failed = await embed(key, 'embed-a');
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(harness.upstream.requests.filter((request) => request.path === '/v1/embeddings').map((request) => request.model)).toEqual(['embed-a']);
  });
});
