import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/cli/command.js';
import { reportQualityCommand } from '../../src/cli/report-quality.js';
import { reportSavingsCommand } from '../../src/cli/report-savings.js';
import { summaryCommand } from '../../src/cli/summary.js';
import { capturingContext } from '../support/cli-context.js';
import { ledgerFile, pricedModelsConfig, prices, record } from './insight-fixture.js';

async function run(command: Command, args: string[]): Promise<{ code: number; stdout: string }> {
  const context = capturingContext({ env: { NO_COLOR: '1' }, cwd: tmpdir() });
  const code = await command.run(args, context);
  return { code, stdout: context.out() };
}

function lastJson(text: string): Record<string, unknown> {
  return JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

describe('insight commands', () => {
  it('report savings, report quality and summary agree with the rows, in JSON and as text', async () => {
    const now = Date.now();
    const path = await ledgerFile([
      record({ id: 'a', at: now - 1000, session: 's1', requested: 'hermes-router', served: 'cheap', input: 10_000, output: 500, full: 8_000, sent: 1_000 }),
      record({ id: 'b', at: now - 500, session: 's1', requested: 'hermes-router', served: 'cheap', input: 12_000, output: 500, cacheRead: 9_000, full: 8_000, sent: 1_000 }),
    ]);
    const dataDir = dirname(path);
    const configPath = join(mkdtempSync(join(tmpdir(), 'insight-config-')), 'hermes-router.yaml');
    writeFileSync(configPath, pricedModelsConfig);
    const flags = ['--data-dir', dataDir, '--config', configPath];

    const savings = await run(reportSavingsCommand, [...flags, '--json']);
    expect(savings.code).toBe(0);
    const figures = lastJson(savings.stdout).savings as { toolSchema: { usd: number }; modelRouting: { usd: number }; promptCache: { usd: number } };
    expect(figures.toolSchema.usd).toBeCloseTo((7_000 * prices.cheap.input + 7_000 * prices.cheap.cache_read) / 1e6, 12);
    const actual = (10_000 * 1 + 500 * 2 + 3_000 * 1 + 9_000 * 0.1 + 500 * 2) / 1e6;
    const onBig = (10_000 * 10 + 500 * 30 + 3_000 * 10 + 9_000 * 1 + 500 * 30) / 1e6;
    expect(figures.modelRouting.usd).toBeCloseTo(onBig - actual, 12);
    expect(figures.promptCache.usd).toBeCloseTo((9_000 * (1 - 0.1)) / 1e6, 12);

    const text = await run(reportSavingsCommand, flags);
    expect(text.stdout).toContain('How each figure is computed');

    const quality = lastJson((await run(reportQualityCommand, [...flags, '--json'])).stdout);
    const rows = quality.rows as { sessionId: string; contextFill: number }[];
    expect(rows[0]?.sessionId).toBe('s1');
    expect(rows[0]?.contextFill).toBeCloseTo(0.12, 10);

    const summary = lastJson((await run(summaryCommand, [...flags, '--json'])).stdout);
    expect((summary.week as { totals: { requests: number } }).totals.requests).toBe(2);
  });

  it('says there is no ledger yet', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'insight-empty-'));
    const result = await run(summaryCommand, ['--data-dir', empty]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/No ledger/);
  });
});
