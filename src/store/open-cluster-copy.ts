import type { ClusterStorageConfig } from '../config/storage.js';
import { resolveStorageUrl } from '../config/storage.js';
import type { PostgresConnectionOptions } from './postgres/postgres-pool.js';
import { closeRedisClient, createRedisCommandClient, waitUntilReady } from './redis/redis-connection.js';
import { RedisChangeAnnouncements } from './redis/redis-change-announcements.js';

/** A Postgres-backed store a CLI command opens in a cluster: read once, announced on Redis when it changes. */
interface FollowedStore {
  reload(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a cluster store for a one-off command (`keys`, `models probe`): one Postgres connection, announcements
 * on `<prefix><channel>` through a Redis client of its own, and a first read. Rejects, after closing what it
 * opened, when Postgres is unreachable, so a command never edits state no instance would see.
 */
export async function openClusterCopy<Store extends FollowedStore>(options: {
  storage: ClusterStorageConfig;
  env: NodeJS.ProcessEnv;
  channel: 'keys' | 'probes';
  /** For the error: `key store`, `probe store`. */
  what: string;
  create(connection: PostgresConnectionOptions & { changes: RedisChangeAnnouncements }): Store;
}): Promise<{ store: Store; close(): Promise<void> }> {
  const { storage, env } = options;
  const client = createRedisCommandClient({ url: resolveStorageUrl(storage.redis_url, storage.redis_url_env, env), commandTimeoutMs: storage.redis_timeout_ms });
  const store = options.create({
    url: resolveStorageUrl(storage.postgres_url, storage.postgres_url_env, env),
    schema: storage.postgres_schema,
    maxConnections: 1,
    changes: new RedisChangeAnnouncements({ client, keyPrefix: storage.redis_key_prefix, channel: options.channel }),
  });
  const close = async (): Promise<void> => {
    await store.close();
    await closeRedisClient(client);
  };
  try {
    await Promise.all([store.reload(), waitUntilReady(client)]);
  } catch (error) {
    await close();
    throw new Error(`the cluster's ${options.what} (Postgres) is unreachable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { store, close };
}
