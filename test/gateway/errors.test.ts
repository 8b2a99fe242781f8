import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness((url) => ({ ...defaultConfig(url), server: { body_limit_bytes: 100_000 } }));
});
afterAll(() => harness.close());

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${harness.gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('errors the gateway produces, in the client format', () => {
  it('malformed JSON → 400, OpenAI shape', async () => {
    const { status, body } = await post('/v1/chat/completions', '{"model": "gpt-test", "messages": [');
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(String((body.error as { message: string }).message)).toMatch(/JSON/);
  });

  it('malformed JSON → 400, Anthropic shape', async () => {
    const { status, body } = await post('/v1/messages', 'not json');
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('a body over the limit → 413 and the gateway keeps serving', async () => {
    const huge = JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'x'.repeat(200_000) }] });
    const { status, body } = await post('/v1/chat/completions', huge);
    expect(status).toBe(413);
    expect(body).toHaveProperty('error.message');
    const ok = await post('/v1/chat/completions', JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }));
    expect(ok.status).toBe(200);
  });

  it('a body that is not valid UTF-8 → 400', async () => {
    const bytes = Buffer.concat([Buffer.from('{"model":"gpt-test","messages":[{"role":"user","content":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}]}')]);
    const response = await fetch(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/UTF-8/);
  });

  it('unknown model → 404 naming the available models', async () => {
    const { status, body } = await post('/v1/chat/completions', JSON.stringify({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] }));
    expect(status).toBe(404);
    expect((body.error as { message: string }).message).toContain('gpt-test');
    const anthropic = await post('/v1/messages', JSON.stringify({ model: 'nope', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }));
    expect(anthropic.status).toBe(404);
    expect(anthropic.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('a structurally invalid body → 400 naming the field', async () => {
    const { status, body } = await post('/v1/chat/completions', JSON.stringify({ model: 'gpt-test', messages: 'hi' }));
    expect(status).toBe(400);
    expect((body.error as { message: string }).message).toMatch(/messages/);
  });

  it('unknown routes → 404; the LM Studio probe path is not claimed', async () => {
    const response = await fetch(`${harness.gateway.url}/api/v1/models`);
    expect(response.status).toBe(404);
  });

  it('/health answers', async () => {
    const response = await fetch(`${harness.gateway.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', providers: 2 });
  });
});

describe('a gateway with no provider', () => {
  it('starts, serves /health and answers chat with a 503 that says how to add a provider', async () => {
    const empty = await startHarness(() => ({}));
    try {
      const health = await fetch(`${empty.gateway.url}/health`);
      expect(health.status).toBe(200);
      const response = await fetch(`${empty.openAiBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'anything', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/providers:/);
    } finally {
      await empty.close();
    }
  });
});

describe('a Hermes-shaped request', () => {
  it('passes through unchanged except the model name (33 tools, long system prompt, streaming with include_usage)', async () => {
    harness.upstream.reset();
    const hermes = JSON.parse(readFileSync(new URL('../fixtures/hermes/turn-1.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const tools = JSON.parse(readFileSync(new URL('../fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as Record<string, unknown>[];
    // tools.cli.json carries a `toolset` field per tool that Hermes does not send.
    const body = { ...hermes, model: 'hermes-router', tools: tools.map(({ toolset: _toolset, ...tool }) => tool) };
    // Tool routing off: with nothing to route, the gateway's only edit is the model name.
    const big = await startHarness((url) => ({ ...defaultConfig(url), tool_routing: { mode: 'off' } }));
    try {
      const response = await fetch(`${big.openAiBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      expect(text).toContain('[DONE]');
      const received = big.upstream.requests.at(-1)?.json as Record<string, unknown>;
      expect(received).toEqual({ ...body, model: 'gpt-test' });
      expect(Object.keys(received)).toEqual(Object.keys(body));
      expect((received.tools as unknown[]).length).toBe(33);
    } finally {
      await big.close();
    }
  });
});
