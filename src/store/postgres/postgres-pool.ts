import pg from 'pg';

export interface PostgresConnectionOptions {
  /** `postgres://user@host:5432/database` */
  url: string;
  /** Where the tables live; created when missing. One schema per deployment (tests use one per run). */
  schema?: string;
  /** Pool size per gateway instance. */
  maxConnections?: number;
  /** How long a query waits for a connection (and a new connection for the server) before failing, in ms. */
  connectTimeoutMs?: number;
}

export const defaultPostgresSchema = 'hermes_router';

/**
 * A pool whose every connection has `search_path` set to the store's schema, so the SQL names tables plainly.
 * Connection errors (the server restarted) are swallowed here: the next query reconnects, and the caller of a
 * query that was cut off sees its rejection.
 */
export function createPostgresPool(options: PostgresConnectionOptions): pg.Pool {
  const schema = options.schema ?? defaultPostgresSchema;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`postgres schema ${JSON.stringify(schema)}: use letters, digits and underscores (at most 63)`);
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    options: `-c search_path=${schema}`,
  });
  pool.on('error', () => undefined);
  // A checked-out connection that drops emits 'error' too (its query rejects as well); without a listener that
  // event would end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
