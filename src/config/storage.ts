import { z } from 'zod';

const sqliteStorageSchema = z.object({ kind: z.literal('sqlite') }).strict();

const clusterStorageSchema = z
  .object({
    kind: z.literal('cluster'),
    /** Ledger and model policy, shared by every instance: `postgres://user:password@host:5432/database`. */
    postgres_url: z.string().min(1).optional(),
    /** Name of an environment variable holding the Postgres URL (keeps the password out of the config file). */
    postgres_url_env: z.string().min(1).optional(),
    /** Sessions, breakers, cooldowns and change notifications: `redis://host:6379/0`. */
    redis_url: z.string().min(1).optional(),
    /** Name of an environment variable holding the Redis URL. */
    redis_url_env: z.string().min(1).optional(),
    /** Postgres schema holding the tables; created at start. */
    postgres_schema: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/).default('hermes_router'),
    /** Prefix of every Redis key and of the change channel; one per deployment sharing a Redis. */
    redis_key_prefix: z.string().min(1).default('hermes-router:'),
    /** How long a routing read waits on Redis before the request goes on without it. */
    redis_timeout_ms: z.number().int().positive().default(500),
    /** How often an instance re-reads shared state in case it missed a notification. */
    resync_ms: z.number().int().positive().default(5_000),
    /** Postgres connections per instance. */
    postgres_pool_size: z.number().int().positive().default(4),
  })
  .strict()
  .refine((storage) => (storage.postgres_url === undefined) !== (storage.postgres_url_env === undefined), {
    message: 'give postgres_url or postgres_url_env (one of them)',
  })
  .refine((storage) => (storage.redis_url === undefined) !== (storage.redis_url_env === undefined), {
    message: 'give redis_url or redis_url_env (one of them)',
  });

/** The URL a cluster setting names, directly or through an environment variable. */
export function resolveStorageUrl(
  direct: string | undefined,
  variable: string | undefined,
  env: NodeJS.ProcessEnv,
): string {
  if (direct !== undefined) return direct;
  const value = variable === undefined ? undefined : env[variable];
  if (!value) throw new Error(`storage: environment variable ${variable ?? '(none)'} is not set; it must hold the server URL`);
  return value;
}

/**
 * `storage:` — where state lives. `sqlite` (default): one instance, everything in the data directory. `cluster`:
 * several instances behind a load balancer sharing Postgres (ledger, policy) and Redis (routing state).
 */
export const storageConfigSchema = z.discriminatedUnion('kind', [sqliteStorageSchema, clusterStorageSchema]);

export type StorageConfig = z.output<typeof storageConfigSchema>;
export type ClusterStorageConfig = z.output<typeof clusterStorageSchema>;
