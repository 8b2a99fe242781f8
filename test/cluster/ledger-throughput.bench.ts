/**
 * Ledger insert and report throughput, SQLite file vs Postgres, in batches of the ledger's default size (250).
 * Run: npx tsx test/cluster/ledger-throughput.bench.ts [records]  — prints a table and a JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleRecords } from '../../src/store/ledger-store.fixtures.js';
import type { LedgerStore } from '../../src/store/ledger-store.js';
import { PostgresLedgerStore } from '../../src/store/postgres/postgres-ledger-store.js';
import { dropSchemas, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';

const count = Number(process.argv[2] ?? 20_000);
const batchSize = 250;
const records = makeSampleRecords(count).map((record, index) => ({ ...record, requestId: `bench-${index}` }));

async function measure(name: string, store: LedgerStore) {
  const started = performance.now();
  for (let offset = 0; offset < records.length; offset += batchSize) await store.insertBatch(records.slice(offset, offset + batchSize));
  const insertMs = performance.now() - started;
  const timed = async (run: () => Promise<unknown>): Promise<number> => {
    const begin = performance.now();
    await run();
    return performance.now() - begin;
  };
  const result = {
    store: name,
    records: count,
    insertRowsPerSecond: Math.round((count / insertMs) * 1000),
    totalsMs: await timed(() => store.totals()),
    dailyMs: await timed(() => store.daily()),
    modelsMs: await timed(() => store.models()),
    sessionsMs: await timed(() => store.sessions()),
    firstPageMs: await timed(() => store.requests({ limit: 50 })),
  };
  await store.close();
  return result;
}

const directory = mkdtempSync(join(tmpdir(), 'hermes-ledger-bench-'));
const schema = uniqueSchemaName('bench');
try {
  const results = [
    await measure('sqlite', new SqliteLedgerStore({ path: join(directory, 'ledger.sqlite') })),
    await measure('postgres', await PostgresLedgerStore.open({ url: postgresTestUrl, schema })),
  ];
  for (const row of results) {
    console.log(
      `${row.store.padEnd(9)} insert ${String(row.insertRowsPerSecond).padStart(7)} rows/s  totals ${row.totalsMs.toFixed(1)} ms  daily ${row.dailyMs.toFixed(1)} ms  models ${row.modelsMs.toFixed(1)} ms  sessions ${row.sessionsMs.toFixed(1)} ms  page ${row.firstPageMs.toFixed(1)} ms`,
    );
  }
  console.log(JSON.stringify({ batchSize, results }));
} finally {
  rmSync(directory, { recursive: true, force: true });
  await dropSchemas([schema]);
}
