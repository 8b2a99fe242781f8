/**
 * Child process for the crash test: stores two batches, then kills itself with SIGKILL, so nothing after the
 * last commit (no close, no exit handlers) runs. Arguments: database path, records per batch.
 */
import { makeSampleRecords } from '../ledger-store.fixtures.js';
import { SqliteLedgerStore } from './sqlite-ledger-store.js';

const [path, countText] = process.argv.slice(2);
if (path === undefined || countText === undefined) throw new Error('usage: <database path> <records per batch>');
const count = Number(countText);
const store = new SqliteLedgerStore({ path });
const records = makeSampleRecords(count * 2);
await store.insertBatch(records.slice(0, count));
await store.insertBatch(records.slice(count));
process.stdout.write('committed\n');
process.kill(process.pid, 'SIGKILL');
