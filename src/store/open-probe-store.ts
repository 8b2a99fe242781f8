import { FileProbeStore } from '../catalog/metadata/file-probe-store.js';
import { probeFilePath } from '../catalog/metadata/probe-results.js';
import type { ProbeStore } from '../catalog/metadata/probe-store.js';
import { type StorageConfig, resolveStorageUrl } from './config.js';
import { PostgresProbeStore } from './postgres/postgres-probe-store.js';
import { closeRedisClient, createRedisCommandClient, waitUntilReady } from './redis/redis-connection.js';
import { RedisChangeAnnouncements } from './redis/redis-change-announcements.js';

export interface ConfiguredProbeStore {
  store: ProbeStore;
  close(): Promise<void>;
}

/**
 * The probe store the config names, for the `models` commands: `model-probes.json` in the data directory, or in
 * a cluster the Postgres table every instance reads (read once here; rejects when Postgres is unreachable, so a
 * probe run never spends tokens on results no instance would see). Each result stored is announced on Redis so
 * running instances take it within milliseconds; with Redis away they take it at their next resync.
 */
export async function openConfiguredProbeStore(options: { storage: StorageConfig; dataDir: string; env?: NodeJS.ProcessEnv }): Promise<ConfiguredProbeStore> {
  const { storage } = options;
  if (storage.kind !== 'cluster') {
    return { store: new FileProbeStore(probeFilePath(options.dataDir)), close: async () => undefined };
  }
  const env = options.env ?? {};
  const client = createRedisCommandClient({ url: resolveStorageUrl(storage.redis_url, storage.redis_url_env, env), commandTimeoutMs: storage.redis_timeout_ms });
  const store = new PostgresProbeStore({
    url: resolveStorageUrl(storage.postgres_url, storage.postgres_url_env, env),
    schema: storage.postgres_schema,
    maxConnections: 1,
    changes: new RedisChangeAnnouncements({ client, keyPrefix: storage.redis_key_prefix, channel: 'probes' }),
  });
  const close = async (): Promise<void> => {
    await store.close();
    await closeRedisClient(client);
  };
  try {
    await Promise.all([store.reload(), waitUntilReady(client)]);
  } catch (error) {
    await close();
    throw new Error(`the cluster's probe store (Postgres) is unreachable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { store, close };
}
