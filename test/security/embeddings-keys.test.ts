import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { bearer, call } from './security-client.js';

const adminKey = 'embeddings-admin-key-0123456789abcdef';
let harness: Harness;
let url: string;

beforeAll(async () => {
  harness = await startHarness(
    (upstreamUrl) => ({
      providers: [
        {
          id: 'local',
          kind: 'openai-compatible',
          base_url: `${upstreamUrl}/v1`,
          api_key: 'sk-local',
          // 1,000 USD per million input tokens: one call costs cents, enough to cross a small daily budget.
          models: ['gpt-test', { id: 'embed-b', embeddings: true, prices: { input: 1_000, output: 0 } }],
        },
      ],
      default_model: 'gpt-test',
    }),
    { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } },
  );
  url = harness.gateway.url;
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

async function createKey(limits: Record<string, number>): Promise<{ id: string; key: string }> {
  const answer = await call(`${url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: { name: 'embedder', scopes: ['embeddings'], limits } });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; key: string };
}

const embed = (key: string) => call(`${url}/v1/embeddings`, { method: 'POST', headers: bearer(key), json: { model: 'embed-b', input: ['alpha beta gamma delta', 'epsilon'] } });

/** Waits until the security observer has added the finished request to the key's day. */
async function usageCounted(keyId: string): Promise<{ tokens: number; costUsd: number }> {
  for (let waited = 0; waited < 15_000; waited += 10) {
    const today = await harness.gateway.security.limiter.today(keyId);
    if (today.tokens > 0) return today;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return harness.gateway.security.limiter.today(keyId);
}

describe('embeddings and application keys', () => {
  it("records the key's id in the ledger row and counts the tokens against tokens_per_day, like chat", async () => {
    const { id, key } = await createKey({ tokens_per_day: 3 });
    const before = harness.observer.records.length;
    const first = await embed(key);
    expect(first.status).toBe(200);
    const record = (await harness.observer.waitFor(before + 1)).at(-1);
    expect(record).toMatchObject({ endpoint: '/v1/embeddings', clientKeyId: id, status: 200 });
    const promptTokens = (first.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
    expect(promptTokens).toBeGreaterThan(3);
    expect((await usageCounted(id)).tokens).toBe(promptTokens);
    const refused = await embed(key);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { message: expect.stringMatching(/tokens per day/) } });
  });

  it('counts the priced cost against cost_per_day_usd', async () => {
    const { id, key } = await createKey({ cost_per_day_usd: 0.001 });
    expect((await embed(key)).status).toBe(200);
    const today = await usageCounted(id);
    expect(today.costUsd).toBeGreaterThan(0.001);
    expect((await embed(key)).status).toBe(429);
  });

  it("keeps a key to its providers and models: an embeddings model outside them is refused with 403", async () => {
    const created = await call(`${url}/v1/admin/keys`, {
      method: 'POST',
      headers: bearer(adminKey),
      json: { name: 'chat-only-model', scopes: ['embeddings'], limits: { models: ['gpt-test'] } },
    });
    expect(created.status).toBe(201);
    const refused = await embed((created.body as { key: string }).key);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { message: expect.stringMatching(/may not use embed-b/) } });
    expect(harness.upstream.requests).toHaveLength(0);
  });
});
