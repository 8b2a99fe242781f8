import type { PostgresMigration } from './postgres-migrations.js';

/**
 * The SQLite ledger schema in Postgres types: epoch milliseconds need BIGINT, durations are DOUBLE PRECISION, and
 * ids compare bytewise (`COLLATE "C"`) so the keyset order of the listing is the one JavaScript and SQLite use.
 * Flags stay 0/1 integers so one row mapper serves both SQL stores.
 */
export const postgresLedgerMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'requests and attempts',
    sql: `
      CREATE TABLE requests (
        request_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
        started_at BIGINT NOT NULL,
        session_id TEXT COLLATE "C",
        client_key_id TEXT,
        inbound_format TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        requested_model TEXT COLLATE "C" NOT NULL,
        served_provider TEXT COLLATE "C",
        served_model TEXT COLLATE "C",
        status INTEGER NOT NULL,
        error_class TEXT,
        streaming SMALLINT NOT NULL,
        time_to_first_byte_ms DOUBLE PRECISION,
        total_ms DOUBLE PRECISION NOT NULL,
        overhead_ms DOUBLE PRECISION NOT NULL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cache_read_tokens INTEGER,
        cache_write_tokens INTEGER,
        reasoning_tokens INTEGER,
        usage_estimated SMALLINT NOT NULL,
        cost_usd DOUBLE PRECISION,
        attempt_count INTEGER NOT NULL,
        decision_json TEXT NOT NULL,
        content_json TEXT
      );
      CREATE INDEX requests_by_time ON requests (started_at, request_id);
      CREATE INDEX requests_by_session ON requests (session_id, started_at);
      CREATE TABLE attempts (
        request_id TEXT COLLATE "C" NOT NULL REFERENCES requests (request_id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        key_id TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        duration_ms DOUBLE PRECISION NOT NULL,
        status INTEGER NOT NULL,
        error_class TEXT,
        error_message TEXT,
        PRIMARY KEY (request_id, ordinal)
      );
    `,
  },
  {
    version: 2,
    name: 'inserting transaction of each request',
    // The insight reader's feed (`factsSince`) needs to know which rows it has not seen. Ids and timestamps are
    // taken before commit, so concurrent instances commit them out of order; the inserting transaction's id
    // tells, with `pg_snapshot_xmin`, which rows can no longer be joined by an earlier, still-open transaction.
    sql: `
      ALTER TABLE requests ADD COLUMN inserted_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
      CREATE INDEX requests_by_inserted_xid ON requests (inserted_xid, request_id);
    `,
  },
];
