import { isAbsolute, join } from 'node:path';
import { SqliteLedgerStore } from '../store/sqlite/sqlite-ledger-store.js';
import { type LedgerConfigInput, ledgerConfigSchema } from '../config/ledger.js';
import { Ledger, type LedgerOptions } from './ledger.js';

export interface OpenLedgerOptions extends Omit<LedgerOptions, 'store' | 'ownsStore' | 'config'> {
  /** From `resolveDataDir` (src/config/paths.ts). */
  dataDir: string;
  config?: LedgerConfigInput;
}

/** Where the ledger database lives: `ledger.database` as given when absolute, else inside the data directory. */
export function ledgerDatabasePath(dataDir: string, database = 'ledger.sqlite'): string {
  return isAbsolute(database) ? database : join(dataDir, database);
}

/** The gateway's ledger on the embedded SQLite store; `close()` flushes and closes the database. */
export function openLedger(options: OpenLedgerOptions): Ledger {
  const config = ledgerConfigSchema.parse(options.config ?? {});
  const store = new SqliteLedgerStore({ path: ledgerDatabasePath(options.dataDir, config.database) });
  return new Ledger({ ...options, config, store, ownsStore: true });
}
