import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeLedgerStoreContract } from '../ledger-store.contract.js';
import { SqliteLedgerStore } from './sqlite-ledger-store.js';

const directory = mkdtempSync(join(tmpdir(), 'hermes-ledger-contract-'));
let counter = 0;
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describeLedgerStoreContract('sqlite', () => new SqliteLedgerStore({ path: join(directory, `ledger-${++counter}.sqlite`) }));
