import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { anthropicChat, bearer, call, openAiChat, rawCall } from './security-client.js';

const adminKey = 'test-admin-key-0123456789abcdef';
let harness: Harness;
let url: string;

async function createKey(body: unknown): Promise<{ id: string; key: string }> {
  const answer = await call(`${url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: body });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; key: string };
}

async function revokeAll(): Promise<void> {
  const listed = (await call(`${url}/v1/admin/keys`, { headers: bearer(adminKey) })).body as { keys: { id: string; revoked_at: string | null }[] };
  for (const key of listed.keys) {
    if (key.revoked_at === null) await call(`${url}/v1/admin/keys/${key.id}`, { method: 'DELETE', headers: bearer(adminKey) });
  }
}

beforeAll(async () => {
  harness = await startHarness(defaultConfig, { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } });
  url = harness.gateway.url;
});
afterAll(() => harness.close());
beforeEach(async () => {
  harness.upstream.reset();
  await revokeAll();
});

describe('chat on loopback', () => {
  it('needs no key while no application key exists, and records no client key', async () => {
    const before = harness.observer.records.length;
    expect((await call(`${url}/v1/chat/completions`, { method: 'POST', json: openAiChat })).status).toBe(200);
    const record = (await harness.observer.waitFor(before + 1)).at(-1);
    expect(record?.clientKeyId).toBeUndefined();
  });

  it('once a key exists, refuses chat without a valid key in each client format, and accepts Bearer and x-api-key', async () => {
    const { id, key } = await createKey({ name: 'agent' });
    const openAi = await call(`${url}/v1/chat/completions`, { method: 'POST', json: openAiChat });
    expect(openAi.status).toBe(401);
    expect(openAi.body).toMatchObject({ error: { type: 'authentication_error' } });
    const anthropic = await call(`${url}/v1/messages`, { method: 'POST', headers: bearer('hrk_0000000000_wrongwrongwrongwrongwrong'), json: anthropicChat });
    expect(anthropic.status).toBe(401);
    expect(anthropic.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const before = harness.observer.records.length;
    const client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: key, maxRetries: 0 });
    expect((await client.chat.completions.create(openAiChat as never)).choices).toBeDefined();
    const anthropicClient = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: key, maxRetries: 0 });
    const message = await anthropicClient.messages.create({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.type).toBe('message');
    const records = await harness.observer.waitFor(before + 2);
    expect(records.slice(-2).map((record) => record.clientKeyId)).toEqual([id, id]);
    // No record, header or body ever holds the key itself.
    expect(JSON.stringify(records)).not.toContain(key);
  });

  it('a revoked key stops working at once', async () => {
    const { id, key } = await createKey({ name: 'short-lived' });
    await createKey({ name: 'keeps keys required' });
    expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    expect((await call(`${url}/v1/admin/keys/${id}`, { method: 'DELETE', headers: bearer(adminKey) })).status).toBe(200);
    expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(401);
  });
});

describe('scopes and the admin API', () => {
  it('lists keys by id, name and last four characters, never the key or its hash', async () => {
    const { key } = await createKey({ name: 'listed', scopes: ['chat'] });
    const listed = await call(`${url}/v1/admin/keys`, { headers: bearer(adminKey) });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(key);
    expect(listed.text).not.toContain('sha256');
    expect(listed.text).toContain(key.slice(-4));
  });

  it('application keys can never change routing or configuration (403), even with the admin scope', async () => {
    const { key } = await createKey({ name: 'reader', scopes: ['chat', 'admin'] });
    const switchOff = { provider: 'local', model: 'gpt-test', enabled: false };
    expect((await call(`${url}/v1/config/models/enabled`, { method: 'POST', headers: bearer(key), json: switchOff })).status).toBe(403);
    expect((await call(`${url}/v1/config/router`, { method: 'POST', headers: bearer(key), json: { mode: 'off' } })).status).toBe(403);
    expect((await call(`${url}/v1/admin/keys`, { method: 'POST', headers: bearer(key), json: { name: 'escalate', scopes: ['admin'] } })).status).toBe(403);
    // Reading is what the admin scope allows.
    expect((await call(`${url}/v1/config/models`, { headers: bearer(key) })).status).toBe(200);
    const { key: plain } = await createKey({ name: 'plain', scopes: ['chat'] });
    expect((await call(`${url}/v1/config/models`, { headers: bearer(plain) })).status).toBe(403);
  });

  it('a key without the chat scope gets 403; models:read guards /v1/models', async () => {
    const { key } = await createKey({ name: 'embed-only', scopes: ['embeddings'] });
    const refused = await call(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': key }, json: anthropicChat });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect((await call(`${url}/v1/models`, { headers: bearer(key) })).status).toBe(403);
    expect((await call(`${url}/v1/models`)).status).toBe(401);
  });

  it('rejects malformed key requests with 400 and a wrong admin key with 401', async () => {
    expect((await call(`${url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: { name: 'x', scopes: ['root'] } })).status).toBe(400);
    expect((await call(`${url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: { name: '' } })).status).toBe(400);
    expect((await call(`${url}/v1/admin/keys`, { headers: bearer('not-the-admin-key') })).status).toBe(401);
    expect((await call(`${url}/v1/admin/keys/0123456789`, { method: 'DELETE', headers: bearer(adminKey) })).status).toBe(404);
  });
});

describe('per-key limits', () => {
  it('requests per minute: the next request gets 429 with Retry-After in the client format', async () => {
    const { key } = await createKey({ name: 'slow', limits: { requests_per_minute: 2 } });
    for (let index = 0; index < 2; index += 1) {
      expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    }
    const limited = await call(`${url}/v1/messages`, { method: 'POST', headers: bearer(key), json: anthropicChat });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('tokens per day: once the day is spent, 429 until the next UTC day', async () => {
    const { key } = await createKey({ name: 'small', limits: { tokens_per_day: 1 } });
    expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    await harness.observer.waitFor(harness.observer.records.length);
    const limited = await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('cost per day counts priced usage', async () => {
    await harness.gateway.security.limiter.recordUsage('0000000000', 0, 0);
    const { id, key } = await createKey({ name: 'budget', limits: { cost_per_day_usd: 0.01 } });
    expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    await harness.gateway.security.limiter.recordUsage(id, 0, 0.02);
    expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(429);
  });

  it('allowed models and providers: others get 403, allowed ones are served', async () => {
    const { key } = await createKey({ name: 'claude-only', limits: { providers: ['claude'] } });
    expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(403);
    expect((await call(`${url}/v1/messages`, { method: 'POST', headers: bearer(key), json: anthropicChat })).status).toBe(200);
    const { key: named } = await createKey({ name: 'big-only', limits: { models: ['local/big-test'] } });
    // gpt-test falls back to big-test, but a named model outside the list is refused, not served by its fallback
    // (every scope combination: test/security/key-model-scopes.test.ts).
    expect((await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(named), json: openAiChat })).status).toBe(403);
    const served = await call(`${url}/v1/chat/completions`, { method: 'POST', headers: bearer(named), json: { ...openAiChat, model: 'big-test' } });
    expect(served.status).toBe(200);
    expect(served.headers.get('x-hermes-router-model')).toBe('local/big-test');
  });
});

describe('browsers', () => {
  it('refuses a foreign Host (DNS rebinding) and a foreign Origin, even with no keys', async () => {
    const body = JSON.stringify(openAiChat);
    const post = (headers: Record<string, string>) =>
      rawCall(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const evilHost = await post({ host: 'attacker.example:8319' });
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.text)).toMatchObject({ error: { type: 'permission_error' } });
    expect((await post({ origin: 'https://attacker.example' })).status).toBe(403);
    expect((await post({ origin: 'null' })).status).toBe(403);
    expect((await post({ origin: url, host: `localhost:${new URL(url).port}` })).status).toBe(200);
  });
});
