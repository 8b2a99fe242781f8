import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { makeSampleRecords } from '../store/ledger-store.fixtures.js';
import { SqliteLedgerStore } from '../store/sqlite/sqlite-ledger-store.js';

const directory = mkdtempSync(join(tmpdir(), 'hermes-ledger-kill-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('after SIGKILL, every request recorded before the last flush interval is in the ledger', async () => {
  const fixture = fileURLToPath(new URL('./ledger-crash.fixture.ts', import.meta.url));
  const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, directory, '100'], { encoding: 'utf8' });
  expect(child.stderr).toBe('');
  expect(child.stdout).toBe('recorded\n');
  expect(child.signal).toBe('SIGKILL');

  const store = new SqliteLedgerStore({ path: join(directory, 'ledger.sqlite') });
  try {
    const stored = new Set((await store.requests({ limit: 1000 })).items.map((record) => record.requestId));
    const records = makeSampleRecords(300, 21);
    // The first group was flushed explicitly and the second by the timer; the third died in memory.
    for (const record of records.slice(0, 200)) expect(stored.has(record.requestId)).toBe(true);
    expect(stored.size).toBe(200);
  } finally {
    await store.close();
  }
});
