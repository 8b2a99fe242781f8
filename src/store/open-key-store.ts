import { FileKeyStore, keyFilePath } from '../security/file-key-store.js';
import type { KeyStore } from '../security/key-store.js';
import { type StorageConfig, resolveStorageUrl } from './config.js';
import { PostgresKeyStore } from './postgres/postgres-key-store.js';
import { closeRedisClient, createRedisCommandClient, waitUntilReady } from './redis/redis-connection.js';
import { RedisChangeAnnouncements } from './redis/redis-change-announcements.js';

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
  const env = options.env ?? {};
  const client = createRedisCommandClient({ url: resolveStorageUrl(storage.redis_url, storage.redis_url_env, env), commandTimeoutMs: storage.redis_timeout_ms });
  const store = new PostgresKeyStore({
    url: resolveStorageUrl(storage.postgres_url, storage.postgres_url_env, env),
    schema: storage.postgres_schema,
    maxConnections: 1,
    changes: new RedisChangeAnnouncements({ client, keyPrefix: storage.redis_key_prefix, channel: 'keys' }),
  });
  const close = async (): Promise<void> => {
    await store.close();
    await closeRedisClient(client);
  };
  try {
    await Promise.all([store.reload(), waitUntilReady(client)]);
  } catch (error) {
    await close();
    throw new Error(`the cluster's key store (Postgres) is unreachable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { store, close };
}
