import { ledgerDatabasePath } from '../../ledger/open-ledger.js';
import { type StorageConfig, resolveStorageUrl } from '../../config/storage.js';
import type { LedgerStore } from '../../store/ledger-store.js';
import { PostgresLedgerStore } from '../../store/postgres/postgres-ledger-store.js';
import { SqliteLedgerStore } from '../../store/sqlite/sqlite-ledger-store.js';

/**
 * The ledger store the config names, for readers (reports, insight): `ledger.sqlite` in the data directory, or
 * the cluster's Postgres (migrations applied, so a wrong URL fails here rather than mid-report).
 */
export async function openConfiguredLedgerStore(options: {
  storage: StorageConfig;
  dataDir: string;
  /** `ledger.database` from the config. */
  database?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<LedgerStore> {
  const { storage } = options;
  if (storage.kind === 'cluster') {
    const url = resolveStorageUrl(storage.postgres_url, storage.postgres_url_env, options.env ?? {});
    return PostgresLedgerStore.open({ url, schema: storage.postgres_schema, maxConnections: 2 });
  }
  return new SqliteLedgerStore({ path: ledgerDatabasePath(options.dataDir, options.database) });
}
