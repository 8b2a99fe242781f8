import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';
import { seededRecords } from '../dashboard/dashboard-harness.js';
import { capturingContext } from '../support/cli-context.js';

const entry = new URL('../../src/cli/run.ts', import.meta.url).pathname;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-terminal-'));
  const store = new SqliteLedgerStore({ path: join(dataDir, 'ledger.sqlite') });
  await store.insertBatch(seededRecords(1_200));
  await store.close();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function report(args: string[], env: NodeJS.ProcessEnv = {}) {
  const context = capturingContext({ env: { HOME: dataDir, ...env }, cwd: dataDir });
  const code = await main(['report', ...args, '--data-dir', dataDir, '--utc'], context);
  return { code, out: context.out(), err: context.err() };
}

describe('terminal manners', () => {
  it('`report requests | head -n 2` ends quietly: no EPIPE stack, exit 0', async () => {
    // More than a pipe buffer of rows, so the CLI is still writing when head exits.
    const child = spawn('sh', ['-c', `"${process.execPath}" --import tsx "${entry}" report requests --limit 1000 --data-dir "${dataDir}" | head -n 2; echo "cli exit $?"`], {
      env: { PATH: process.env.PATH, HOME: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((resolve) => child.once('exit', resolve));
    expect(stdout.split('\n')[0]).toMatch(/^Time\s+Request/);
    expect(stderr).toBe('');
    expect(stderr).not.toContain('EPIPE');
  }, 60_000);

  it.each([60, 80, 100, 120])('tables fit a %i-column terminal, key columns kept, and say what they left out', async (width) => {
    for (const name of ['daily', 'sessions', 'models', 'requests', 'quality']) {
      const result = await report([name], { COLUMNS: String(width) });
      expect(result.code, result.err).toBe(0);
      // The table: from its header (the line above the first rule) to the first blank line or note.
      const lines = result.out.split('\n');
      const firstRule = lines.findIndex((line) => line.startsWith('─'));
      expect(firstRule, `${name} has a table`).toBeGreaterThan(0);
      const end = lines.findIndex((line, index) => index > firstRule && (line === '' || line.startsWith('(')));
      const table = lines.slice(firstRule - 1, end === -1 ? undefined : end);
      expect(table.filter((line) => line.length > width), `${name} at ${width}`).toEqual([]);
      expect(result.out).toContain('Cost');
    }
    const daily = await report(['daily'], { COLUMNS: String(width) });
    expect(daily.out).toMatch(/^Date\s/);
    expect(daily.out).toMatch(/Input\s+Output/);
  });

  it('without a known width (a pipe, no COLUMNS) every column is shown', async () => {
    const result = await report(['requests', '--limit', '3']);
    for (const header of ['Time', 'Request', 'Session', 'Model', 'Provider', 'Status', 'Error', 'Attempts', 'Input', 'Output', 'Cost (USD)', 'TTFB ms', 'Total ms']) {
      expect(result.out.split('\n')[0]).toContain(header);
    }
    expect(result.out).not.toContain('fitted to');
  });

  it('--since accepts YYYYMMDD and spans, and they select the same days as the long form', async () => {
    const long = await report(['daily', '--since', '2026-11-21', '--until', '2026-11-22', '--json']);
    const compact = await report(['daily', '--since', '20261121', '--until', '20261122', '--json']);
    expect(compact.code).toBe(0);
    expect(JSON.parse(compact.out)).toEqual(JSON.parse(long.out));
    expect((JSON.parse(long.out) as { rows: unknown[] }).rows).toHaveLength(2);
    const recent = await report(['daily', '--since', '7d']);
    expect(recent.code).toBe(0);
    const yesterday = await report(['daily', '--since', 'yesterday', '--until', 'yesterday']);
    expect(yesterday.code).toBe(0);
  });
});
