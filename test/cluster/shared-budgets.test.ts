import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, postgresTestUrl } from '../../src/store/postgres/postgres-test-support.js';
import { redisAvailable, redisTestUrl } from '../../src/store/redis/redis-test-support.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { call } from '../security/security-client.js';
import { budgetConfig, fixedUsage, tokensPerRequest } from '../budgets/budget-harness.js';
import { type ClusterPair, startClusterPair, within } from './cluster-harness.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the shared budgets cluster test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const chat = (on: ConfiguredGateway, headers: Record<string, string> = {}) =>
  call(`${on.url}/v1/chat/completions`, { method: 'POST', headers, json: { model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } });

async function settled(on: ConfiguredGateway): Promise<void> {
  await within(15_000, async () => (await on.gateway.budgets.status()).every((status) => status.held === 0));
}

/** Budgets counted in Redis: one limit for both instances, one request at most over it under concurrency. */
describe.skipIf(!available)('budgets shared by two instances (Postgres + Redis)', () => {
  let pair: ClusterPair;
  let first: ConfiguredGateway;
  let second: ConfiguredGateway;
  const limit = 400;

  beforeAll(async () => {
    pair = await startClusterPair('budgets_cluster', {
      configure: (config) => {
        const priced = budgetConfig('http://unused', {});
        return {
          ...config,
          providers: config.providers!.map((provider, index) => ({ ...provider, models: priced.providers![index]!.models })),
          budgets: {
            soft_at: 0.5,
            gateway: { day: { tokens: limit } },
            session: { tokens: 50 },
            models: { 'big-test': { month: { usd: 0.05 } } },
            providers: { claude: { day: { tokens: 30 } } },
          },
        };
      },
    });
    ({ first, second } = pair);
    fixedUsage(pair);
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('a session budget spent through A is spent on B (session window, hard)', async () => {
    const session = { 'x-session-id': 'cluster-session-1' };
    expect((await chat(first, session)).status).toBe(200);
    await settled(first);
    expect((await chat(second, session)).status).toBe(200);
    await settled(second);
    // 40 of 50 used: the soft limit shows on the next answer, then 60 refuses, on either instance.
    const warned = await chat(first, session);
    expect(warned.headers.get('x-hermes-router-budget-warning')).toContain('gateway session tokens 80%');
    await settled(first);
    const refused = await chat(second, session);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('gateway session tokens');
    expect(refused.text).toContain('60 tokens used in this session');
  });

  it('a provider day budget and a model month budget hold across both instances', async () => {
    // Each request its own session: the 50-token session budget is not what this test is about.
    let sessions = 0;
    const own = () => ({ 'x-session-id': `scoped-${(sessions += 1)}` });
    const ask = (on: ConfiguredGateway) =>
      call(`${on.url}/v1/messages`, { method: 'POST', headers: own(), json: { model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } });
    expect((await ask(first)).headers.get('x-hermes-router-model')).toBe('claude/claude-test');
    await settled(first);
    expect((await ask(second)).headers.get('x-hermes-router-model')).toBe('claude/claude-test');
    await settled(second);
    // 40 of claude's 30 tokens: B's next claude request goes to the default model instead.
    expect((await ask(first)).headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    await settled(first);
    const statuses = await second.gateway.budgets.status();
    expect(statuses.find((status) => status.label === 'provider claude day tokens')).toMatchObject({ spent: 40, state: 'exceeded' });

    const big = (on: ConfiguredGateway) =>
      call(`${on.url}/v1/chat/completions`, { method: 'POST', headers: own(), json: { model: 'big-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } });
    // big-test costs $0.06 a request: the first one spends the month's $0.05; the next, on B, moves to the default.
    expect((await big(first)).headers.get('x-hermes-router-model')).toBe('local/big-test');
    await settled(first);
    expect((await big(second)).headers.get('x-hermes-router-model')).toBe('local/gpt-test');
  });

  it('50 parallel requests over both instances against the gateway day limit overshoot by at most one request', async () => {
    await settled(first);
    const before = (await first.gateway.budgets.status()).find((status) => status.label === 'gateway day tokens')?.spent ?? 0;
    pair.upstream.setScript({ respond: { kind: 'synthetic', text: 'ok', usage: { inputTokens: 10, outputTokens: 10 }, delayBeforeHeadersMs: 30 } });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => chat(index % 2 === 0 ? first : second, { 'x-session-id': `burst-${index}` })));
    await settled(first);
    const spent = (await second.gateway.budgets.status()).find((status) => status.label === 'gateway day tokens')?.spent ?? 0;
    const served = answers.filter((answer) => answer.status === 200).length;
    const refused = answers.filter((answer) => answer.status === 429).length;
    const overshoot = spent - limit;
    console.info(
      `budgets, two instances: 50 parallel requests, limit ${limit} tokens (${before} already spent), served ${served}, refused ${refused}, spent ${spent}, overshoot ${Math.max(0, overshoot)} tokens (one request = ${tokensPerRequest})`,
    );
    expect(served + refused).toBe(50);
    expect(refused).toBeGreaterThan(0);
    expect(overshoot).toBeLessThanOrEqual(tokensPerRequest);
  });
});
