import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import pino from 'pino';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from '../support/gateway-harness.js';
import { bearer, call } from '../security/security-client.js';
import { type BudgetsInput, claudeUsdPerRequest, gptUsdPerRequest, nextUtcMidnight, nextUtcMonth, settled, startBudgetHarness, tokensPerRequest } from './budget-harness.js';

/**
 * `budgets:` on one instance, one scope and window at a time: requests pass while the committed total is under
 * the limit, the next one gets 429 in the client's own format naming the budget, the spend and the reset.
 */
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(budgets: BudgetsInput, env: Record<string, string> = {}): Promise<Harness> {
  harness = await startBudgetHarness(budgets, { env });
  return harness;
}

function chat(target: Harness, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return call(`${target.gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers,
    json: { model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...body },
  });
}

/** Sends requests one after another until one is refused; returns how many were served and the refusal. */
async function serveUntilRefused(target: Harness, send: () => ReturnType<typeof chat>, atMost = 20) {
  for (let served = 0; served < atMost; served += 1) {
    const answer = await send();
    if (answer.status !== 200) return { served, refusal: answer };
    await settled(target);
  }
  throw new Error(`no refusal after ${atMost} requests`);
}

function openAiError(answer: { body: unknown }): { message: string; type: string; code: string } {
  return (answer.body as { error: { message: string; type: string; code: string } }).error;
}

describe('gateway budgets', () => {
  it('day tokens: 429 insufficient_quota naming the budget, the spend and the reset, with Retry-After', async () => {
    const target = await start({ gateway: { day: { tokens: 50 } } });
    const { served, refusal } = await serveUntilRefused(target, () => chat(target));
    // 0, 20 and 40 are under 50: three requests; the fourth finds 60 used.
    expect(served).toBe(3);
    expect(refusal.status).toBe(429);
    const error = openAiError(refusal);
    expect(error.type).toBe('insufficient_quota');
    expect(error.code).toBe('insufficient_quota');
    expect(error.message).toContain('gateway day tokens');
    expect(error.message).toContain(`${3 * tokensPerRequest} tokens used today`);
    expect(error.message).toContain('50 tokens limit');
    expect(error.message).toContain(nextUtcMidnight());
    const retryAfter = Number(refusal.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(refusal.headers.get('x-should-retry')).toBe('false');
  });

  it('month USD: refused once the month is spent; the SDK surfaces it without retrying', async () => {
    const target = await start({ gateway: { month: { usd: 0.05 } } });
    const { served } = await serveUntilRefused(target, () => chat(target));
    expect(served).toBe(3);
    const before = target.upstream.requestCount('/v1/chat/completions');
    const client = new OpenAI({ baseURL: target.openAiBaseUrl, apiKey: 'x', maxRetries: 2 });
    const failure = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    const message = (failure as Error).message;
    expect(message).toContain('gateway month usd');
    expect(message).toContain(`$${(3 * gptUsdPerRequest).toFixed(4)} used this month`);
    expect(message).toContain(nextUtcMonth());
    expect(target.upstream.requestCount('/v1/chat/completions')).toBe(before);
  });

  it('per session: one session is refused, another is served; the message says a new session starts afresh', async () => {
    const target = await start({ session: { usd: 0.03 } });
    const inSession = (id: string) => chat(target, {}, { 'x-session-id': id });
    const { served, refusal } = await serveUntilRefused(target, () => inSession('alpha'));
    expect(served).toBe(2);
    expect(openAiError(refusal).message).toContain('gateway session usd');
    expect(openAiError(refusal).message).toContain('a new session starts a new budget');
    expect(refusal.headers.get('retry-after')).toBeNull();
    expect((await inSession('beta')).status).toBe(200);
  });

  it('soft limit: the response header warns from soft_at on, the log says it once', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    harness = await startBudgetHarness({ soft_at: 0.5, gateway: { day: { tokens: 100 } } }, { logger: pino({ level: 'warn' }, stream) });
    const target = harness;
    const headers: (string | null)[] = [];
    for (let index = 0; index < 4; index += 1) {
      const answer = await chat(target);
      expect(answer.status).toBe(200);
      headers.push(answer.headers.get('x-hermes-router-budget-warning'));
      await settled(target);
    }
    // Used before each request: 0, 20, 40, 60 of 100; warnings from 50.
    expect(headers.slice(0, 3)).toEqual([null, null, null]);
    expect(headers[3]).toContain('gateway day tokens 60%');
    expect(headers[3]).toContain(nextUtcMidnight());
    const warnings = lines.filter((line) => String(line.msg).startsWith('budget soft limit'));
    expect(warnings).toHaveLength(1);
    expect((await chat(target)).headers.get('x-hermes-router-budget-warning')).toContain('80%');
    expect(lines.filter((line) => String(line.msg).startsWith('budget soft limit'))).toHaveLength(1);
  });
});

describe('model and provider budgets', () => {
  it('a model whose day is spent drops out and its fallback serves', async () => {
    const target = await start({ models: { 'gpt-test': { day: { tokens: 30 } } } });
    expect((await chat(target)).status).toBe(200);
    await settled(target);
    expect((await chat(target)).status).toBe(200);
    await settled(target);
    // 40 tokens on gpt-test: its fallback big-test answers.
    const fallback = await chat(target);
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect(target.upstream.requests.at(-1)?.model).toBe('big-test');
    const status = await target.gateway.gateway.budgets.status();
    expect(status.find((entry) => entry.label === 'model gpt-test day tokens')).toMatchObject({ spent: 40, state: 'exceeded' });
  });

  it('provider USD: a spent provider drops out for the next candidate; none left → rate_limit_error in the Anthropic format', async () => {
    const target = await start({ providers: { claude: { day: { usd: 0.015 } }, local: { day: { usd: 0.001 } } } });
    const client = new Anthropic({ baseURL: target.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
    const ask = () =>
      call(`${target.gateway.url}/v1/messages`, { method: 'POST', json: { model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } });
    await client.messages.create({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    await settled(target);
    expect((await ask()).headers.get('x-hermes-router-model')).toBe('claude/claude-test');
    await settled(target);
    // claude has spent $0.02 of $0.015: the global default on provider local answers instead.
    const moved = await ask();
    expect(moved.status).toBe(200);
    expect(moved.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    await settled(target);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    const message = (refused.body as { error: { message: string } }).error.message;
    expect(message).toContain('provider claude day usd');
    expect(message).toContain(`$${(2 * claudeUsdPerRequest).toFixed(4)} used today`);
  });
});

describe('application key budgets', () => {
  it('a key named in budgets.keys is refused when its day is spent; requests without it are not', async () => {
    const adminKey = 'budget-admin-key-0123456789abcdef';
    const target = await start({ keys: { agent: { day: { tokens: 30 } } } }, { HERMES_ROUTER_ADMIN_KEY: adminKey });
    const created = await call(`${target.gateway.url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: { name: 'agent', scopes: ['chat', 'embeddings'] } });
    const other = await call(`${target.gateway.url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: { name: 'other' } });
    const key = (created.body as { key: string }).key;
    const { served, refusal } = await serveUntilRefused(target, () => chat(target, {}, bearer(key)));
    expect(served).toBe(2);
    expect(openAiError(refusal).message).toContain('key agent day tokens');
    expect((await chat(target, {}, bearer((other.body as { key: string }).key))).status).toBe(200);
    // Embeddings count against the same key.
    const embeddings = await call(`${target.gateway.url}/v1/embeddings`, { method: 'POST', headers: bearer(key), json: { model: 'embed-a', input: 'alpha' } });
    expect(embeddings.status).toBe(429);
  });
});

describe('concurrency', () => {
  it('50 parallel requests against a hard limit overshoot it by at most one request', async () => {
    const limit = 200;
    const target = await start({ gateway: { day: { tokens: limit } } });
    target.upstream.setScript({ respond: { kind: 'synthetic', text: 'ok', usage: { inputTokens: 10, outputTokens: 10 }, delayBeforeHeadersMs: 30 } });
    const answers = await Promise.all(Array.from({ length: 50 }, () => chat(target)));
    await settled(target);
    const served = answers.filter((answer) => answer.status === 200).length;
    const refused = answers.filter((answer) => answer.status === 429).length;
    const spent = (await target.gateway.gateway.budgets.status())[0]?.spent ?? 0;
    const overshoot = spent - limit;
    console.info(`budgets, one instance: 50 parallel requests, limit ${limit} tokens, served ${served}, refused ${refused}, spent ${spent}, overshoot ${Math.max(0, overshoot)} tokens (one request = ${tokensPerRequest})`);
    expect(served + refused).toBe(50);
    expect(refused).toBeGreaterThan(0);
    expect(overshoot).toBeLessThanOrEqual(tokensPerRequest);
  });
});
