/**
 * Child process for the ledger crash test: records a first group and waits for the flush, records a second
 * group and waits only for the timer (flush_interval_ms 50) to have written it, then records a third group and
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
await sleep(400);
for (const record of records.slice(count * 2)) ledger.record(record);
process.stdout.write('recorded\n');
process.kill(process.pid, 'SIGKILL');
