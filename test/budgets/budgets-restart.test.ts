import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetsRebuildProblem, rebuildBudgetsFromLedger } from '../../src/budgets/budgets-from-ledger.js';
import { BudgetGuard } from '../../src/budgets/budget-guard.js';
import { budgetRules } from '../../src/budgets/rules.js';
import { budgetsConfigSchema } from '../../src/config/budgets.js';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { makeRequestRecord } from '../../src/store/ledger-store.fixtures.js';
import { MemoryLedgerStore } from '../../src/store/memory/memory-ledger-store.js';
import { MemoryBudgetCounterStore } from '../../src/store/memory/memory-budget-counter-store.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { call } from '../security/security-client.js';
import { budgetConfig, fixedUsage } from './budget-harness.js';

describe('rebuildBudgetsFromLedger', () => {
  const noon = Date.UTC(2026, 10, 30, 12, 0, 0);
  const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });

  it('starts every day, month and session budget from the rows of its own window', async () => {
    const ledger = new MemoryLedgerStore();
    const row = (requestId: string, startedAt: number, provider: string, model: string, tokens: number, costUsd: number, extra: Record<string, unknown> = {}) =>
      makeRequestRecord({ requestId, startedAt, servedProvider: provider, servedModel: model, usage: usage(tokens, 0), costUsd, ...extra });
    await ledger.insertBatch([
      row('today-1', noon - 60_000, 'local', 'gpt-test', 100, 0.25, { sessionId: 's1', clientKeyId: 'key-a' }),
      row('today-2', noon - 30_000, 'claude', 'claude-test', 10, 0.5, { sessionId: 's1' }),
      row('this-month', Date.UTC(2026, 10, 2), 'local', 'gpt-test', 1_000, 2),
      row('last-month', Date.UTC(2026, 9, 31), 'local', 'gpt-test', 50_000, 90),
    ]);
    const config = budgetsConfigSchema.parse({
      gateway: { day: { usd: 10, tokens: 10_000 }, month: { usd: 100 } },
      session: { tokens: 500 },
      models: { 'gpt-test': { day: { tokens: 1_000 }, month: { tokens: 100_000 } } },
      providers: { claude: { day: { usd: 1 } } },
      keys: { 'key-a': { day: { tokens: 1_000 } } },
    });
    const store = new MemoryBudgetCounterStore(() => noon);
    await rebuildBudgetsFromLedger(ledger, budgetRules(config), store, { now: () => noon });
    const guard = new BudgetGuard({ config, store, priceOf: () => 0, costOf: () => 0, now: () => noon });
    const spent = Object.fromEntries((await guard.status()).map((status) => [status.label, status.spent]));
    expect(spent).toEqual({
      'gateway day usd': 0.75,
      'gateway day tokens': 110,
      'gateway month usd': 2.75,
      'model gpt-test day tokens': 100,
      'model gpt-test month tokens': 1_100,
      'provider claude day usd': 0.5,
      'key key-a day tokens': 100,
    });
    // The session's 110 tokens are under its 500: one more request of s1 is admitted; a session at its limit is not.
    const candidate = { deployment: { providerId: 'local', modelId: 'gpt-test', qualifiedName: 'local/gpt-test' } };
    await expect(guard.admit('next', { sessionId: 's1' }, [candidate], { inputTokens: 1, outputTokens: 1 })).resolves.toMatchObject({ candidates: [candidate] });
  });

  it('a ledger that cannot be read leaves the counters alone and says so', async () => {
    const warnings: string[] = [];
    const broken = { totals: () => Promise.reject(new Error('disk gone')), models: () => Promise.reject(new Error('x')), clientKeys: () => Promise.reject(new Error('x')), sessions: () => Promise.reject(new Error('x')) };
    const config = budgetsConfigSchema.parse({ gateway: { day: { usd: 1 } } });
    const rules = budgetRules(config);
    const reason = await rebuildBudgetsFromLedger(broken, rules, new MemoryBudgetCounterStore(), { logger: { warn: (_details, message) => warnings.push(message) } });
    expect(warnings).toHaveLength(1);
    expect(reason).toBe('disk gone');
    // /health says which budgets undercount, until the day they started in has ended.
    expect(budgetsRebuildProblem(rules, noon, reason, noon + 60_000)).toMatch(/^budgets did not start from the ledger \(disk gone\): gateway day usd count only requests since 2026-11-30T12:00:00.000Z/);
    expect(budgetsRebuildProblem(rules, noon, reason, Date.UTC(2026, 11, 1, 0, 0, 1))).toBeUndefined();
    expect(budgetsRebuildProblem(rules, noon, undefined, noon)).toBeUndefined();
    const readable = new MemoryLedgerStore();
    expect(await rebuildBudgetsFromLedger(readable, rules, new MemoryBudgetCounterStore(), { now: () => noon })).toBeUndefined();
  });
});

describe('one instance keeps its budgets across a restart, and shows them in /metrics and the dashboard', () => {
  let upstream: FakeUpstream;
  let dataDir: string;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    fixedUsage({ upstream });
    dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-budgets-'));
  });
  afterAll(async () => {
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () =>
    runConfiguredGateway({
      config: parseConfig({ ...budgetConfig(upstream.url, { soft_at: 0.5, gateway: { day: { tokens: 40 } } }), server: { port: 0 }, ledger: { flush_interval_ms: 20 } }, 'test'),
      dataDir,
      env: { HERMES_ROUTER_ADMIN_KEY: 'restart-admin-key-0123456789' },
      logger: pino({ level: 'silent' }),
    });
  const chat = (url: string) => call(`${url}/v1/chat/completions`, { method: 'POST', json: { model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } });

  it('two requests spend 40 of 40 tokens; after a restart the third is refused', async () => {
    const first = await start();
    expect((await chat(first.url)).status).toBe(200);
    expect((await chat(first.url)).status).toBe(200);
    const metrics = await call(`${first.url}/metrics`, { headers: { authorization: 'Bearer restart-admin-key-0123456789' } });
    expect(metrics.text).toMatch(/hermes_router_budget_used_ratio\{budget="gateway day tokens"\} (0\.5|1)/);
    expect(metrics.text).toContain('hermes_router_budget_warnings_total{budget="gateway day tokens"} 1');
    const dashboard = await call(`${first.url}/dashboard/api/budgets`, { headers: { authorization: 'Bearer restart-admin-key-0123456789' } });
    expect(dashboard.status).toBe(200);
    expect((dashboard.body as { budgets: unknown[] }).budgets).toEqual([
      expect.objectContaining({ label: 'gateway day tokens', spent: 40, held: 0, limit: 40, state: 'exceeded' }),
    ]);
    await first.close();
    const second = await start();
    try {
      expect((await second.gateway.budgets.status())[0]).toMatchObject({ label: 'gateway day tokens', spent: 40, state: 'exceeded' });
      const refused = await chat(second.url);
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('40 tokens used today');
    } finally {
      await second.close();
    }
  });
});
