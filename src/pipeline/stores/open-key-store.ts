import { FileKeyStore, keyFilePath } from '../../store/keys/file-key-store.js';
import type { KeyStore } from '../../store/keys/key-store.js';
import type { StorageConfig } from '../../config/storage.js';
import { openClusterCopy } from '../../store/open-cluster-copy.js';
import { PostgresKeyStore } from '../../store/postgres/postgres-key-store.js';

export interface ConfiguredKeyStore {
  store: KeyStore;
  close(): Promise<void>;
}

/**
 * The key store the config names, for the `keys` commands: the key file in the data directory, or in a cluster
 * the Postgres one the instances use (read once; rejects when Postgres is unreachable, so a command never edits
 * a file no instance reads). A change is announced on Redis so running instances take it within milliseconds;
 * with Redis away they take it at their next resync.
 */
export async function openConfiguredKeyStore(options: {
  storage: StorageConfig;
  dataDir: string;
  /** `auth.key_file` from the config. */
  keyFile?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<ConfiguredKeyStore> {
  const { storage } = options;
  if (storage.kind !== 'cluster') {
    return { store: new FileKeyStore(keyFilePath(options.dataDir, options.keyFile)), close: async () => undefined };
  }
  return openClusterCopy({
    storage,
    env: options.env ?? {},
    channel: 'keys',
    what: 'key store',
    create: (connection) => new PostgresKeyStore(connection),
  });
}
