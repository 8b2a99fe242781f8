import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Applies, in one transaction each, every migration newer than the highest version recorded in
 * `schema_migrations`. Versions only ever grow: a released migration is never edited, a change is a new one.
 * Several processes may open the same file (the gateway and a report): `BEGIN IMMEDIATE` makes the second wait
 * for the first and then find the work done.
 */
export function applyMigrations(database: Database.Database, migrations: readonly Migration[]): number {
  database.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       version INTEGER PRIMARY KEY,
       name TEXT NOT NULL,
       applied_at INTEGER NOT NULL
     )`,
  );
  const current = (): number =>
    (database.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations').get() as {
      version: number;
    }).version;
  const record = database.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const ordered = [...migrations].sort((left, right) => left.version - right.version);
  const latest = ordered.at(-1)?.version ?? 0;
  if (current() > latest) {
    throw new Error(
      `ledger database schema version ${current()} is newer than this hermes-router (${latest}); upgrade hermes-router`,
    );
  }
  for (const migration of ordered) {
    const apply = database.transaction(() => {
      if (current() >= migration.version) return;
      database.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    });
    apply.immediate();
  }
  return current();
}
