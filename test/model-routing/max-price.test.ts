import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { summarizeRouting } from '../../src/ledger/routing-summary.js';
import { MemoryLedgerStore } from '../../src/store/memory/memory-ledger-store.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { call } from '../security/security-client.js';

/** gpt-test $1/$1 per million tokens, big-test $3/$3 (dearer), claude-test free. */
function pricedConfig(upstreamUrl: string, fallbacks: ConfigInput['fallbacks']): ConfigInput {
  const base = defaultConfig(upstreamUrl);
  return {
    ...base,
    providers: [
      { ...base.providers![0]!, models: [{ id: 'gpt-test', prices: { input: 1, output: 1 } }, { id: 'big-test', prices: { input: 3, output: 3 } }] },
      { ...base.providers![1]!, models: [{ id: 'claude-test', prices: { input: 0, output: 0 } }] },
    ],
    fallbacks,
  };
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function primaryDown(fallbacks: ConfigInput['fallbacks']): Promise<Harness> {
  harness = await startHarness((url) => pricedConfig(url, fallbacks));
  harness.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
  return harness;
}

const ask = (target: Harness) => call(`${target.gateway.url}/v1/chat/completions`, { method: 'POST', json: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] } });
const modelsAsked = (target: Harness) => target.upstream.requests.map((request) => request.model);

describe('fallbacks with max_price (fault: the primary is down, only a dearer fallback is left)', () => {
  it('max_price: primary refuses the dearer fallback with an error that says so; nothing dearer is called', async () => {
    const target = await primaryDown({ 'gpt-test': { models: ['big-test'], max_price: 'primary' } });
    const refused = await ask(target);
    expect(refused.status).toBe(502);
    const message = (refused.body as { error: { message: string } }).error.message;
    expect(message).toContain('No fallback was tried: max_price allows no dearer than the primary');
    expect(message).toContain('local/big-test ($3/$3 per million tokens, dearer than the primary\'s $1/$1 per million tokens)');
    expect(modelsAsked(target)).not.toContain('big-test');
    const record = (await target.observer.waitFor(1)).at(-1);
    expect(record?.decision.models?.priceCap).toEqual({ maxPrice: 'primary', refused: [{ provider: 'local', model: 'big-test', reason: expect.stringContaining('dearer') }] });
    // The official client sees the same message.
    const client = new OpenAI({ baseURL: target.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/max_price allows no dearer than the primary/);
  });

  it('without max_price the same fault is served by the dearer fallback', async () => {
    const target = await primaryDown({ 'gpt-test': ['big-test'] });
    const served = await ask(target);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-hermes-router-model')).toBe('local/big-test');
  });

  it('free_only keeps the free fallback and drops the priced one', async () => {
    const target = await primaryDown({ 'gpt-test': { models: ['big-test', 'claude-test'], max_price: 'free_only' } });
    const served = await ask(target);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-hermes-router-model')).toBe('claude/claude-test');
    expect(modelsAsked(target)).not.toContain('big-test');
  });

  it('a USD per million ceiling: under it is tried, over it is not; report routing counts both', async () => {
    const target = await primaryDown({ 'gpt-test': { models: ['big-test', 'claude-test'], max_price: 2 } });
    expect((await ask(target)).headers.get('x-hermes-router-model')).toBe('claude/claude-test');
    // Now the free fallback is down too: refused, with the ceiling in the message.
    target.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 }, 'claude-test': { kind: 'error', status: 503 } } });
    const refused = await ask(target);
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(refused.text).toContain('at most $2 per million tokens');
    expect(modelsAsked(target)).not.toContain('big-test');
    const ledger = new MemoryLedgerStore();
    await ledger.insertBatch(await target.observer.waitFor(2));
    const { models } = await summarizeRouting(ledger, {});
    expect(models.priceCapped).toEqual({ requests: 2, unserved: 1, refusedFallbacks: { 'local/big-test': 2 } });
  });

  it('a config error names the path of a bad max_price', async () => {
    expect(() => parseConfig(pricedConfig('http://127.0.0.1:9', { 'gpt-test': { models: ['big-test'], max_price: 'cheap' as never } }), 'test')).toThrow(/fallbacks\.gpt-test/);
  });
});
