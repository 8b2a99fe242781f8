import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { makeRequestRecord } from '../../src/store/ledger-store.fixtures.js';

class Capture extends Writable {
  text = '';
  constructor(readonly isTTY = false, readonly columns = 200) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function run(args: string[]) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(args, { stdout, stderr, env: {}, cwd: process.cwd() });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function lastJson(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trimEnd().split('\n').at(-1) ?? '') as Record<string, unknown>;
}

// Anthropic-like prices in USD per million tokens: reads at a tenth, writes at 1.25× the input price.
const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
const directory = mkdtempSync(join(tmpdir(), 'hermes-cache-costs-'));
const configPath = join(directory, 'hermes-router.yaml');
// Within the last few hours, so `summary` (today and the last 7 days) covers them too.
const start = Date.now() - 3 * 3_600_000;

function turn(index: number, usage: { input: number; read: number; write: number }, extra: Partial<RequestRecord> = {}): RequestRecord {
  return makeRequestRecord({
    requestId: `cache-${index}`,
    startedAt: start + index * 60_000,
    sessionId: 'fp_0a1b2c3d4e5f60718293a4b5',
    requestedModel: 'claude-x',
    servedProvider: 'claude',
    servedModel: 'claude-x',
    usage: { inputTokens: usage.input, outputTokens: 500, cacheReadTokens: usage.read, cacheWriteTokens: usage.write, reasoningTokens: 0 },
    costUsd: 0.01,
    ...extra,
  });
}

const records: RequestRecord[] = [
  turn(0, { input: 20_000, read: 0, write: 19_000 }, {
    decision: { session: { id: 'fp_0a1b2c3d4e5f60718293a4b5', source: 'fingerprint', agent: 'Hermes Agent', firstPrompt: 'why is the arm build slow?' } },
  }),
  turn(1, { input: 22_000, read: 19_000, write: 2_500 }),
  // A later turn needed the browser: the surface grew before the call and the whole prompt was written again.
  turn(2, { input: 30_000, read: 0, write: 28_000 }, {
    decision: {
      tools: { mode: 'on', outcome: 'sticky', reason: 'anticipated', predictedToolsets: ['browser'], fullToolCount: 40, sentToolCount: 12, anticipatedToolsets: ['browser', 'web'] },
    },
  }),
  turn(3, { input: 31_000, read: 28_000, write: 2_000 }),
  // Hermes's title request, attached to the session.
  turn(4, { input: 300, read: 0, write: 0 }, { decision: { session: { id: 'fp_0a1b2c3d4e5f60718293a4b5', source: 'fingerprint', title: 'Slow arm builds' } } }),
];

beforeAll(async () => {
  writeFileSync(
    configPath,
    `providers:\n  - id: claude\n    kind: anthropic\n    base_url: http://127.0.0.1:9/\n    api_key: sk-test\n    models:\n      - id: claude-x\n        prices: ${JSON.stringify(price)}\ndefault_model: claude-x\n`,
  );
  const ledger = openLedger({ dataDir: directory });
  for (const record of records) ledger.record(record);
  await ledger.close();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const perToken = (usd: number) => usd / 1_000_000;
// Written out from the prices, independently of the code: reads saved (input − read price), writes cost the premium.
const reads = 19_000 + 28_000;
const writes = 19_000 + 2_500 + 28_000 + 2_000;
const expectedSaved = reads * perToken(price.input - price.cache_read) - writes * perToken(price.cache_write - price.input);
// The growth: 28,000 tokens written at the write price, the other 2,000 uncached ones at the input price.
const expectedChangeCost = 28_000 * perToken(price.cache_write) + 2_000 * perToken(price.input);

describe('what caching saved and what each tool-surface change cost, per session', () => {
  it('report sessions --json: cache saving, one priced line per surface change, and the labels', async () => {
    const result = await run(['report', 'sessions', '--data-dir', directory, '--config', configPath, '--json']);
    expect(result.stderr).toBe('');
    const report = lastJson(result.stdout) as { rows: Record<string, unknown>[]; totals: Record<string, unknown> };
    expect(report.rows).toHaveLength(1);
    const row = report.rows[0] ?? {};
    expect(row.cacheSavedUsd).toBeCloseTo(expectedSaved, 10);
    expect(row.title).toBe('Slow arm builds');
    expect(row.firstPrompt).toBe('why is the arm build slow?');
    expect(row.agent).toBe('Hermes Agent');
    expect(row.surfaceChanges).toEqual([
      expect.objectContaining({ requestId: 'cache-2', kind: 'anticipated', toolsets: ['browser', 'web'], cacheWriteTokens: 28_000, uncachedInputTokens: 30_000 }),
    ]);
    expect((row.surfaceChanges as { costUsd: number }[])[0]?.costUsd).toBeCloseTo(expectedChangeCost, 10);
    expect(row.surfaceChangeCostUsd).toBeCloseTo(expectedChangeCost, 10);
    expect(report.totals.cacheSavedUsd).toBeCloseTo(expectedSaved, 10);
  });

  it('report sessions (table): the session by its title and agent, the saving, the change and its priced line', async () => {
    const result = await run(['report', 'sessions', '--data-dir', directory, '--config', configPath]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Slow arm builds [Hermes Agent]');
    expect(result.stdout).not.toContain('fp_0a1b2c');
    expect(result.stdout).toMatch(/Cache saved/);
    expect(result.stdout).toContain(`$${expectedSaved.toFixed(4)}`);
    expect(result.stdout).toContain(`1 $${expectedChangeCost.toFixed(4)}`);
    expect(result.stdout).toMatch(/Slow arm builds \[Hermes Agent\]: grew by browser, web before the call; 28,000 tokens written, 30,000 uncached: \$0\.1110/);
  });

  it('report savings and summary: the prompt-cache saving and the surface changes with their cost', async () => {
    const savings = lastJson((await run(['report', 'savings', '--data-dir', directory, '--config', configPath, '--json'])).stdout) as {
      savings: { promptCache: { usd: number } };
      surfaceChanges: { changes: number; costUsd: number };
      sessions: { sessionId: string; title: string | null; cacheSavedUsd: number; surfaceChanges: number; surfaceChangeCostUsd: number }[];
    };
    expect(savings.savings.promptCache.usd).toBeCloseTo(expectedSaved, 10);
    expect(savings.surfaceChanges.changes).toBe(1);
    expect(savings.surfaceChanges.costUsd).toBeCloseTo(expectedChangeCost, 10);
    expect(savings.sessions[0]).toMatchObject({ title: 'Slow arm builds', surfaceChanges: 1 });
    expect(savings.sessions[0]?.cacheSavedUsd).toBeCloseTo(expectedSaved, 10);
    const table = await run(['report', 'savings', '--data-dir', directory, '--config', configPath]);
    expect(table.stdout).toMatch(/Tool-surface changes: 1, cost \$0\.1110/);
    expect(table.stdout).toContain('Slow arm builds');

    const summary = await run(['summary', '--data-dir', directory, '--config', configPath]);
    expect(summary.stdout).toMatch(/Tool-surface changes: 1, cost \$0\.1110/);
    expect(summary.stdout).toContain(`prompt cache $${expectedSaved.toFixed(4)}`);
    expect(summary.stdout).toContain(`cache saved $${expectedSaved.toFixed(4)}, 1 surface change(s) $${expectedChangeCost.toFixed(4)}`);
  });
});
