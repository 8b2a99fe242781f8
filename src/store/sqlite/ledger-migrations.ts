import type { Migration } from './migrations.js';

/**
 * The ledger schema. One row per client request, one per upstream attempt. Usage columns are NULL when nothing
 * was reported or estimated; `cost_usd` is NULL when the served model has no price (unpriced, never $0).
 */
export const ledgerMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'requests and attempts',
    sql: `
      CREATE TABLE requests (
        request_id TEXT PRIMARY KEY NOT NULL,
        started_at INTEGER NOT NULL,
        session_id TEXT,
        client_key_id TEXT,
        inbound_format TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        requested_model TEXT NOT NULL,
        served_provider TEXT,
        served_model TEXT,
        status INTEGER NOT NULL,
        error_class TEXT,
        streaming INTEGER NOT NULL,
        time_to_first_byte_ms REAL,
        total_ms REAL NOT NULL,
        overhead_ms REAL NOT NULL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cache_read_tokens INTEGER,
        cache_write_tokens INTEGER,
        reasoning_tokens INTEGER,
        usage_estimated INTEGER NOT NULL,
        cost_usd REAL,
        attempt_count INTEGER NOT NULL,
        decision_json TEXT NOT NULL,
        content_json TEXT
      );
      -- Every index is paid on each insert: time (every report and the listing) and session only. A model
      -- filter rides on the time range.
      CREATE INDEX requests_by_time ON requests (started_at, request_id);
      CREATE INDEX requests_by_session ON requests (session_id, started_at);

      CREATE TABLE attempts (
        request_id TEXT NOT NULL REFERENCES requests (request_id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        key_id TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        duration_ms REAL NOT NULL,
        status INTEGER NOT NULL,
        error_class TEXT,
        error_message TEXT,
        PRIMARY KEY (request_id, ordinal)
      ) WITHOUT ROWID;
    `,
  },
];
