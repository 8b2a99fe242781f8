/**
 * Ledger micro-benchmark: what recording a request costs the gateway's thread.
 *
 *   node --import tsx bench/ledger.ts [--rows 20000] [--json]
 *
 * Prints: `record()` on the calling thread (p50/p99), the deferred per-row preparation (pricing + metrics,
 * no estimation), a tokenizer estimate of a Hermes-sized prompt, and the SQLite write of a 1,000-row batch
 * (one transaction, WAL, synchronous=NORMAL) on a temp file. Numbers only, no assertions; the machine is
 * shared, so read them as orders of magnitude.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { RequestRecord } from '../src/core/ledger-record.js';
import { estimateUsage } from '../src/ledger/estimate-usage.js';
import { Ledger } from '../src/ledger/ledger.js';
import { GatewayMetrics } from '../src/ledger/metrics.js';
import { makeSampleRecords } from '../src/store/ledger-store.fixtures.js';
import type { LedgerStore } from '../src/store/ledger-store.js';
import { MemoryLedgerStore } from '../src/store/memory/memory-ledger-store.js';
import { SqliteLedgerStore } from '../src/store/sqlite/sqlite-ledger-store.js';

const { values: flags } = parseArgs({
  options: { rows: { type: 'string', default: '20000' }, json: { type: 'boolean', default: false } },
});
const rowCount = Number(flags.rows);

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

function summary(samples: number[]): { p50: number; p99: number; max: number; mean: number } {
  const sorted = [...samples].sort((left, right) => left - right);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: samples.reduce((total, value) => total + value, 0) / samples.length,
  };
}

/** Fresh ids and unpriced costs, so every row is priced and inserted, not skipped as a duplicate. */
function freshRecords(count: number, prefix: string): RequestRecord[] {
  return makeSampleRecords(count, 3).map((record, index) => ({
    ...record,
    requestId: `${prefix}-${index}`,
    costUsd: null,
  }));
}

class NullStore extends MemoryLedgerStore {
  override async insertBatch(): Promise<void> {}
}

const directory = mkdtempSync(join(tmpdir(), 'hermes-ledger-bench-'));
try {
  // 1. record() on the calling thread, yielding to the loop every 100 calls as a server would between requests.
  const metrics = new GatewayMetrics();
  const sqliteStore: LedgerStore = new SqliteLedgerStore({ path: join(directory, 'ledger.sqlite') });
  const ledger = new Ledger({ store: sqliteStore, metrics });
  const records = freshRecords(rowCount, 'record');
  const recordMicros: number[] = [];
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] as RequestRecord;
    const started = process.hrtime.bigint();
    ledger.record(record);
    recordMicros.push(Number(process.hrtime.bigint() - started) / 1000);
    if (index % 100 === 99) await yieldToLoop();
  }
  const closeStarted = performance.now();
  await ledger.close();
  const closeMs = performance.now() - closeStarted;
  await sqliteStore.close();

  // 2. Deferred preparation per row (pricing, metrics), with a store that writes nothing; rounds after a warm-up.
  const prepareRounds: number[] = [];
  const prepareLedger = new Ledger({ store: new NullStore(), metrics: new GatewayMetrics() });
  for (let round = 0; round < 8; round += 1) {
    const prepareRecords = freshRecords(2000, `prepare-${round}`);
    for (const record of prepareRecords) prepareLedger.record(record);
    const prepareStarted = performance.now();
    await prepareLedger.flush();
    if (round > 0) prepareRounds.push(((performance.now() - prepareStarted) * 1000) / prepareRecords.length);
  }
  await prepareLedger.close();
  const prepareMicrosPerRow = summary(prepareRounds).p50;
  const prepareMicrosBest = Math.min(...prepareRounds);

  // 3. One SQLite transaction of 1,000 prepared rows, repeated.
  const batchStore = new SqliteLedgerStore({ path: join(directory, 'batches.sqlite') });
  const batchMillis: number[] = [];
  for (let round = 0; round < 30; round += 1) {
    const batch = freshRecords(1000, `batch-${round}`).map((record) => ({ ...record, costUsd: 0.001 }));
    const started = performance.now();
    await batchStore.insertBatch(batch);
    if (round > 0) batchMillis.push(performance.now() - started);
  }
  await batchStore.close();

  // 4. A full Ledger.flush() of 1,000 queued rows (preparation + one transaction), repeated.
  const flushStore = new SqliteLedgerStore({ path: join(directory, 'flush.sqlite') });
  const flushLedger = new Ledger({ store: flushStore, metrics: new GatewayMetrics() });
  const flushMillis: number[] = [];
  for (let round = 0; round < 20; round += 1) {
    for (const record of freshRecords(1000, `flush-${round}`)) flushLedger.record(record);
    const started = performance.now();
    await flushLedger.flush();
    flushMillis.push(performance.now() - started);
  }
  await flushLedger.close();
  await flushStore.close();

  // 5. Estimating usage for a prompt the size Hermes sends (~70 KB) and a short one.
  const paragraph = 'The agent reads the repository, runs the tests and edits src/server/routes/chat.ts. ';
  const estimateMillis = (characters: number): number => {
    const source = { requestText: paragraph.repeat(Math.ceil(characters / paragraph.length)).slice(0, characters), responseText: 'Done.' };
    estimateUsage(source);
    const started = performance.now();
    for (let round = 0; round < 10; round += 1) estimateUsage(source);
    return (performance.now() - started) / 10;
  };

  const result = {
    rows: rowCount,
    recordMicros: summary(recordMicros),
    prepareMicrosPerRow,
    prepareMicrosBest,
    sqliteBatchOf1000Millis: summary(batchMillis),
    ledgerFlushOf1000Millis: summary(flushMillis),
    closeMillis: closeMs,
    estimateMillis: { characters4k: estimateMillis(4_000), characters70k: estimateMillis(70_000) },
  };
  const perRowMicros = prepareMicrosPerRow + (result.sqliteBatchOf1000Millis.p50 * 1000) / 1000 + result.recordMicros.mean;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...result, amortisedMicrosPerRequest: perRowMicros })}\n`);
  } else {
    const micro = (value: number): string => `${value.toFixed(2)} µs`;
    const milli = (value: number): string => `${value.toFixed(2)} ms`;
    process.stdout.write(
      [
        `ledger benchmark, ${rowCount} rows`,
        `record() on the calling thread   p50 ${micro(result.recordMicros.p50)}  p99 ${micro(result.recordMicros.p99)}  max ${micro(result.recordMicros.max)}`,
        `preparation per row (deferred)   median ${micro(prepareMicrosPerRow)}  best ${micro(prepareMicrosBest)} (pricing + metrics, no estimate)`,
        `SQLite insert of 1,000 rows      p50 ${milli(result.sqliteBatchOf1000Millis.p50)}  p99 ${milli(result.sqliteBatchOf1000Millis.p99)}  best ${milli(Math.min(...batchMillis))}`,
        `Ledger.flush() of 1,000 rows     p50 ${milli(result.ledgerFlushOf1000Millis.p50)}  p99 ${milli(result.ledgerFlushOf1000Millis.p99)} (preparation + write)`,
        `close() after ${rowCount} rows      ${milli(closeMs)}`,
        `usage estimate                   4 KB ${milli(result.estimateMillis.characters4k)}  70 KB ${milli(result.estimateMillis.characters70k)}`,
        `amortised CPU per request        ${micro(perRowMicros)} (record + preparation + share of one write, medians)`,
        `machine load average             ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${availableParallelism()} cores`,
        '',
      ].join('\n'),
    );
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
