import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server the cluster tests use: `HERMES_TEST_POSTGRES_URL`, else the local one CI provides. */
export const postgresTestUrl = process.env.HERMES_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the test server answers within a second; the suites skip (saying why) when it does not. */
export async function postgresAvailable(url = postgresTestUrl): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A schema name no other test file or run uses, so parallel suites never see each other's rows. */
export function uniqueSchemaName(label: string): string {
  return `test_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchemas(schemas: readonly string[], url = postgresTestUrl): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
