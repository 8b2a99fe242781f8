import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { bearer, call, openAiChat } from './security-client.js';

const adminKey = 'test-admin-key-0123456789abcdef';
let harness: Harness;

// Priced only under `ledger.prices`, in USD per million tokens: the fake reports a million input tokens per answer.
function withPrice(url: string, input: number): ConfigInput {
  return { ...defaultConfig(url), ledger: { prices: { 'gpt-test': { input, output: 0 } } } };
}

beforeAll(async () => {
  harness = await startHarness((url) => withPrice(url, 2), { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } });
  harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'ok', usage: { inputTokens: 1_000_000, outputTokens: 0 } } });
});
afterAll(() => harness.close());

async function spentToday(id: string, atLeast: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { costUsd } = await harness.gateway.security.limiter.today(id);
    if (costUsd >= atLeast - 1e-9 || Date.now() > deadline) return costUsd;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a key's daily cost limit counts the dollars the ledger records", () => {
  it('prices from ledger.prices, and after a reload from the new prices', async () => {
    const created = await call(`${harness.gateway.url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: { name: 'priced', limits: { cost_per_day_usd: 100 } } });
    const { id, key } = created.body as { id: string; key: string };
    expect((await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    expect(await spentToday(id, 2)).toBeCloseTo(2, 6);
    const [record] = await harness.observer.waitFor(1);
    expect(record?.costUsd ?? null).toBeNull(); // priced later, by the ledger; the limit priced it itself

    harness.gateway.gateway.reload(parseConfig(withPrice(harness.upstream.url, 5), 'reloaded'));
    expect((await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    expect(await spentToday(id, 7)).toBeCloseTo(7, 6);
  });
});
