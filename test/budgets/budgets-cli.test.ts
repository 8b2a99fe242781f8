import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { makeRequestRecord } from '../../src/store/ledger-store.fixtures.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';
import { capturingContext } from '../support/cli-context.js';
import { nextUtcMidnight } from './budget-harness.js';

describe('hermes-router budgets', () => {
  let dir: string;
  const configPath = () => join(dir, 'config.yaml');
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hermes-router-budgets-cli-'));
    writeFileSync(
      configPath(),
      [
        'providers:',
        '  - {id: local, kind: openai-compatible, base_url: "http://127.0.0.1:9/v1", api_key: sk-x, models: [gpt-test]}',
        'budgets:',
        '  gateway: {day: {usd: 1, tokens: 1000}}',
        '  session: {usd: 0.5}',
        '  models: {gpt-test: {month: {tokens: 500}}}',
        '',
      ].join('\n'),
    );
    const store = new SqliteLedgerStore({ path: join(dir, 'ledger.sqlite') });
    const usage = { inputTokens: 300, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
    await store.insertBatch([makeRequestRecord({ requestId: 'today', startedAt: Date.now() - 1_000, servedProvider: 'local', servedModel: 'gpt-test', usage, costUsd: 0.85 })]);
    await store.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (...flags: string[]) => {
    const context = capturingContext({ cwd: dir, env: {} });
    const code = await main(['budgets', '--config', configPath(), '--data-dir', dir, ...flags], context);
    return { code, out: context.out(), err: context.err() };
  };

  it('--json: every day and month budget with the ledger spend, state and reset', async () => {
    const { code, out } = await run('--json');
    expect(code).toBe(0);
    const report = JSON.parse(out) as { budgets: { label: string; spent: number; state: string; resetsAt?: string }[]; session: unknown };
    expect(report.session).toEqual({ usd: 0.5 });
    const byLabel = Object.fromEntries(report.budgets.map((budget) => [budget.label, budget]));
    expect(byLabel['gateway day usd']).toMatchObject({ spent: 0.85, state: 'warning', resetsAt: nextUtcMidnight() });
    expect(byLabel['gateway day tokens']).toMatchObject({ spent: 600, state: 'ok' });
    expect(byLabel['model gpt-test month tokens']).toMatchObject({ spent: 600, state: 'exceeded' });
  });

  it('the table names each budget, its use and REFUSING for a spent one', async () => {
    const { code, out } = await run();
    expect(code).toBe(0);
    expect(out).toMatch(/gateway day usd\s+\S+\s+\$0\.8500\s+\$1\.00\s+85%\s+warning/);
    expect(out).toMatch(/model gpt-test month tokens\s+\S+\s+600 tokens\s+500 tokens\s+120%\s+REFUSING/);
    expect(out).toContain('Each session: $0.5000.');
  });
});
