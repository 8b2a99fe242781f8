import type { Pool, PoolClient } from 'pg';

export interface PostgresMigration {
  version: number;
  name: string;
  /** Runs with `search_path` set to the store's schema, so table names stay unqualified. */
  sql: string;
}

/** The database was migrated by a newer hermes-router: running on it could misread or damage its rows. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly component: string,
    readonly found: number,
    readonly supported: number,
    schema: string,
  ) {
    super(`${component} schema version ${found} in ${schema} is newer than this hermes-router (${supported}); upgrade hermes-router`);
    this.name = 'SchemaTooNewError';
  }
}

/** Double-quotes an identifier (schema names come from config, so they are quoted, never interpolated raw). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Applies every migration newer than the highest version in `<schema>.schema_migrations`, one transaction each.
 * Several gateway instances start at once against one database: a transaction-scoped advisory lock keyed on the
 * schema makes the others wait and then find the work done. Returns the schema version now in force.
 */
export async function applyPostgresMigrations(
  pool: Pool,
  schema: string,
  component: string,
  migrations: readonly PostgresMigration[],
): Promise<number> {
  const ordered = [...migrations].sort((left, right) => left.version - right.version);
  const latest = ordered.at(-1)?.version ?? 0;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`hermes-router:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    await client.query(`SET LOCAL search_path TO ${quoteIdentifier(schema)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         component TEXT NOT NULL,
         version INTEGER NOT NULL,
         name TEXT NOT NULL,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
         PRIMARY KEY (component, version)
       )`,
    );
    const current = await currentVersion(client, component);
    if (current > latest) {
      throw new SchemaTooNewError(component, current, latest, schema);
    }
    for (const migration of ordered) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (component, version, name) VALUES ($1, $2, $3)', [
        component,
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
    return Math.max(current, latest);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function currentVersion(client: PoolClient, component: string): Promise<number> {
  const result = await client.query<{ version: number }>(
    'SELECT COALESCE(MAX(version), 0)::int AS version FROM schema_migrations WHERE component = $1',
    [component],
  );
  return result.rows[0]?.version ?? 0;
}
