/**
 * Child process for the ledger crash test: records a first group and waits for the flush, records a second
 * group and waits, without flushing, until the timer (flush_interval_ms 50) has written it, then records a third group and
 * kills itself with SIGKILL before any flush can run. Arguments: data directory, records per group.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { makeSampleRecords } from '../store/ledger-store.fixtures.js';
import { openLedger } from './open-ledger.js';

const [dataDir, countText] = process.argv.slice(2);
if (dataDir === undefined || countText === undefined) throw new Error('usage: <data dir> <records per group>');
const count = Number(countText);
const records = makeSampleRecords(count * 3, 21);
const ledger = openLedger({ dataDir, config: { flush_interval_ms: 50 } });
for (const record of records.slice(0, count)) ledger.record(record);
await ledger.flush();
for (const record of records.slice(count, count * 2)) ledger.record(record);
// Only the timer writes the second group; waiting for the backlog to drain keeps the test free of timing guesses.
const deadline = Date.now() + 10_000;
while (ledger.backlog > 0) {
  if (Date.now() > deadline) throw new Error('the flush timer never wrote the second group');
  await sleep(10);
}
for (const record of records.slice(count * 2)) ledger.record(record);
process.stdout.write('recorded\n');
process.kill(process.pid, 'SIGKILL');
