import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/ledger-record.js';
import { openLedger } from '../ledger/open-ledger.js';
import { makeSampleRecords } from '../store/ledger-store.fixtures.js';
import { main } from './main.js';

class Capture extends Writable {
  text = '';
  constructor(readonly isTTY = false) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function run(args: string[], options: { env?: NodeJS.ProcessEnv; tty?: boolean } = {}) {
  const stdout = new Capture(options.tty ?? false);
  const stderr = new Capture();
  const code = await main(args, { stdout, stderr, env: options.env ?? {}, cwd: process.cwd() });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The last line of stdout, as the `--json` convention promises. */
function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines.at(-1) ?? '') as Record<string, unknown>;
}

/** Independent sums over the inserted records, in the shape the reports print. */
function sums(records: readonly RequestRecord[]) {
  let cost = 0;
  for (const record of records) cost += record.costUsd ?? 0;
  return {
    requests: records.length,
    failedRequests: records.filter((record) => record.status >= 400).length,
    inputTokens: records.reduce((total, record) => total + (record.usage?.inputTokens ?? 0), 0),
    outputTokens: records.reduce((total, record) => total + (record.usage?.outputTokens ?? 0), 0),
    cacheReadTokens: records.reduce((total, record) => total + (record.usage?.cacheReadTokens ?? 0), 0),
    cacheWriteTokens: records.reduce((total, record) => total + (record.usage?.cacheWriteTokens ?? 0), 0),
    reasoningTokens: records.reduce((total, record) => total + (record.usage?.reasoningTokens ?? 0), 0),
    unpricedRequests: records.filter((record) => record.costUsd === null).length,
    estimatedRequests: records.filter((record) => record.usageEstimated).length,
    cost,
  };
}

function expectRowMatches(row: unknown, records: readonly RequestRecord[]): void {
  const { cost, ...expected } = sums(records);
  expect(row).toMatchObject(expected);
  expect((row as { costUsd: number }).costUsd).toBeCloseTo(cost, 9);
}

const directory = mkdtempSync(join(tmpdir(), 'hermes-report-'));
const records = makeSampleRecords(240, 11);
const utcDay = (record: RequestRecord): string => new Date(record.startedAt).toISOString().slice(0, 10);

beforeAll(async () => {
  // Through the real ledger and SQLite file, as the gateway writes it.
  const ledger = openLedger({ dataDir: directory });
  for (const record of records) ledger.record(record);
  await ledger.close();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('hermes-router report', () => {
  it('daily --json: every day and the total equal the sums of the inserted records', async () => {
    const result = await run(['report', 'daily', '--data-dir', directory, '--utc', '--json']);
    expect(result.code).toBe(0);
    const report = lastJson(result.stdout) as { rows: { date: string }[]; totals: unknown };
    const days = [...new Set(records.map(utcDay))].sort();
    expect(report.rows.map((row) => row.date)).toEqual(days);
    for (const row of report.rows) expectRowMatches(row, records.filter((record) => utcDay(record) === row.date));
    expectRowMatches(report.totals, records);
  });

  it('--since/--until take whole days, inclusive, and ISO instants as given', async () => {
    const since = Date.UTC(2026, 10, 19);
    const until = Date.UTC(2026, 10, 21);
    const days = await run(['report', 'daily', '--data-dir', directory, '--utc', '--json', '--since', '2026-11-19', '--until', '2026-11-20']);
    const inWindow = records.filter((record) => record.startedAt >= since && record.startedAt < until);
    expectRowMatches(lastJson(days.stdout).totals, inWindow);
    const instant = Date.UTC(2026, 10, 19, 13, 30);
    const iso = await run(['report', 'models', '--data-dir', directory, '--json', '--since', new Date(instant).toISOString()]);
    expectRowMatches(lastJson(iso.stdout).totals, records.filter((record) => record.startedAt >= instant));
  });

  it('sessions and models --json group as the records do, with --session and --model filters', async () => {
    const sessions = lastJson((await run(['report', 'sessions', '--data-dir', directory, '--json'])).stdout) as {
      rows: { sessionId: string | null; cacheReadShare: number }[];
    };
    for (const row of sessions.rows) {
      const mine = records.filter((record) => (record.sessionId ?? null) === row.sessionId);
      expectRowMatches(row, mine);
      // The share of the session's input tokens read from the provider's prompt cache.
      const input = mine.reduce((total, record) => total + (record.usage?.inputTokens ?? 0), 0);
      const read = mine.reduce((total, record) => total + (record.usage?.cacheReadTokens ?? 0), 0);
      expect(row.cacheReadShare).toBeCloseTo(input === 0 ? 0 : read / input, 10);
    }
    expect(sessions.rows.some((row) => row.cacheReadShare > 0)).toBe(true);
    const one = lastJson((await run(['report', 'sessions', '--data-dir', directory, '--json', '--session', 'session-3'])).stdout);
    expectRowMatches(one.totals, records.filter((record) => record.sessionId === 'session-3'));

    const models = lastJson((await run(['report', 'models', '--data-dir', directory, '--json', '--model', 'gpt-4o'])).stdout) as {
      rows: { provider: string | null; model: string }[];
      totals: unknown;
    };
    const matching = records.filter((record) => record.servedModel === 'gpt-4o' || record.requestedModel === 'gpt-4o');
    expectRowMatches(models.totals, matching);
    for (const row of models.rows) {
      expectRowMatches(
        row,
        matching.filter(
          (record) => (record.servedProvider ?? null) === row.provider && (record.servedModel ?? record.requestedModel) === row.model,
        ),
      );
    }
  });

  it('requests --json pages through every request once, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page += 1) {
      const args = ['report', 'requests', '--data-dir', directory, '--json', '--limit', '37'];
      const result = lastJson((await run(cursor ? [...args, '--cursor', cursor] : args)).stdout) as {
        items: RequestRecord[];
        nextCursor?: string;
      };
      seen.push(...result.items.map((record) => record.requestId));
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const expected = [...records]
      .sort((left, right) => right.startedAt - left.startedAt || (left.requestId < right.requestId ? 1 : -1))
      .map((record) => record.requestId);
    expect(seen).toEqual(expected);
  });

  it('prints an aligned plain table when not a terminal, and flags unpriced rows', async () => {
    const result = await run(['report', 'daily', '--data-dir', directory, '--utc']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b[');
    const lines = result.stdout.split('\n');
    const header = lines[0] ?? '';
    const rule = lines[1] ?? '';
    expect(header.indexOf('Requests') + 'Requests'.length).toBe(rule.split('  ').slice(0, 2).join('  ').length);
    expect(result.stdout).toMatch(/^Total\s/m);
    expect(result.stdout).toContain(' *');
    expect(result.stdout).toContain('no known price');
    const total = sums(records);
    expect(result.stdout).toContain(total.inputTokens.toLocaleString('en-US'));
  });

  it('colours only a terminal, and honours NO_COLOR', async () => {
    const tty = await run(['report', 'models', '--data-dir', directory], { tty: true });
    expect(tty.stdout).toContain('\u001b[');
    const noColor = await run(['report', 'models', '--data-dir', directory], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
  });

  it('finds the ledger through HERMES_ROUTER_HOME', async () => {
    const result = await run(['report', 'daily', '--json'], { env: { HERMES_ROUTER_HOME: directory } });
    expectRowMatches(lastJson(result.stdout).totals, records);
  });

  it('reports an empty ledger without creating one, and rejects bad flags', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'hermes-report-empty-'));
    try {
      const result = await run(['report', 'daily', '--data-dir', empty, '--json']);
      expect(result.code).toBe(0);
      expect(lastJson(result.stdout)).toEqual({ report: 'daily', rows: [], totals: null });
      const text = await run(['report', 'daily', '--data-dir', empty]);
      expect(text.stdout).toContain('No ledger');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    expect((await run(['report', 'daily', '--data-dir', directory, '--since', 'last-tuesday'])).code).toBe(2);
    expect((await run(['report', 'daily', '--data-dir', directory, '--since', '2026-02-30'])).code).toBe(2);
    expect((await run(['report', 'daily', '--data-dir', directory, '--limit', '5'])).code).toBe(2);
    expect((await run(['report', 'daily', '--data-dir', directory, '--bogus'])).code).toBe(2);
  });
});
