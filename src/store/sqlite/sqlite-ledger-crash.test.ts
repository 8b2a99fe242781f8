import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { makeSampleRecords } from '../ledger-store.fixtures.js';
import { SqliteLedgerStore } from './sqlite-ledger-store.js';

const directory = mkdtempSync(join(tmpdir(), 'hermes-ledger-crash-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('keeps every committed batch when the writing process is killed with SIGKILL', async () => {
  const path = join(directory, 'ledger.sqlite');
  const fixture = fileURLToPath(new URL('./sqlite-ledger-crash.fixture.ts', import.meta.url));
  const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, path, '150'], { encoding: 'utf8' });
  expect(child.stderr).toBe('');
  expect(child.stdout).toBe('committed\n');
  expect(child.signal).toBe('SIGKILL');

  const reopened = new SqliteLedgerStore({ path });
  try {
    const expected = makeSampleRecords(300);
    expect((await reopened.totals()).requests).toBe(300);
    const page = await reopened.requests({ limit: 1000 });
    expect(new Set(page.items.map((record) => record.requestId))).toEqual(
      new Set(expected.map((record) => record.requestId)),
    );
  } finally {
    await reopened.close();
  }
});

it('records the applied schema version once, however often the file is opened', async () => {
  const path = join(directory, 'versions.sqlite');
  const first = new SqliteLedgerStore({ path });
  const second = new SqliteLedgerStore({ path });
  expect(first.schemaVersion).toBe(second.schemaVersion);
  expect(first.schemaVersion).toBeGreaterThanOrEqual(1);
  await first.close();
  await second.close();
});
