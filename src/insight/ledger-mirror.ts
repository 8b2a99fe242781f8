import type Database from 'better-sqlite3';

/**
 * A compact copy (a TEMP table) of the ledger's request rows, with the routing decision's fields pulled out of
 * `decision_json` once per row. The ledger rows are wide (the decision JSON, sometimes content), so scanning them
 * and parsing JSON on every dashboard refresh cost seconds at 100,000 rows; the copy is scanned in tens of ms and
 * every view still aggregates in SQL. It catches up by rowid (the ledger only appends) before each query.
 */
export class LedgerMirror {
  readonly database: Database.Database;
  #lastRowid = 0;
  readonly #copy: Database.Statement;
  readonly #newest: Database.Statement;

  /**
   * `ledger` is a connection opened read-only: SQLite refuses any write to its file, yet lets it keep TEMP
   * tables, so the copy runs inside SQLite (no row crosses into JavaScript) and lives only in this connection.
   */
  constructor(ledger: Database.Database) {
    this.database = ledger;
    this.database.exec(`
      CREATE TEMP TABLE facts (
        source_rowid INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        session_id TEXT,
        requested_model TEXT NOT NULL,
        served_provider TEXT,
        served_model TEXT,
        status INTEGER NOT NULL,
        attempt_count INTEGER NOT NULL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cache_read_tokens INTEGER,
        cache_write_tokens INTEGER,
        reasoning_tokens INTEGER,
        cost_usd REAL,
        usage_estimated INTEGER NOT NULL,
        total_ms REAL NOT NULL,
        time_to_first_byte_ms REAL,
        tool_mode TEXT,
        tool_outcome TEXT,
        full_schema_tokens INTEGER,
        sent_schema_tokens INTEGER,
        tool_recoveries INTEGER,
        model_policy TEXT,
        model_reason TEXT
      );
      CREATE INDEX temp.facts_by_time ON facts (started_at);
      CREATE INDEX temp.facts_by_session ON facts (session_id, started_at);
    `);
    this.#copy = this.database.prepare(
      `INSERT OR REPLACE INTO temp.facts
       SELECT rowid, request_id, endpoint, started_at, session_id, requested_model, served_provider, served_model,
              status, attempt_count, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
              reasoning_tokens, cost_usd, usage_estimated, total_ms, time_to_first_byte_ms,
              json_extract(decision_json, '$.tools.mode'),
              json_extract(decision_json, '$.tools.outcome'),
              json_extract(decision_json, '$.tools.fullSchemaTokens'),
              json_extract(decision_json, '$.tools.sentSchemaTokens'),
              json_extract(decision_json, '$.tools.recoveries'),
              json_extract(decision_json, '$.models.policy'),
              json_extract(decision_json, '$.models.reason')
       FROM main.requests WHERE rowid > ? AND rowid <= ?`,
    );
    this.#newest = this.database.prepare('SELECT MAX(rowid) AS newest FROM main.requests');
  }

  /** Changes whenever new rows were copied: results computed at the same version are still current. */
  get version(): number {
    return this.#lastRowid;
  }

  /** Copies the rows written since the last call. */
  sync(): void {
    const newest = (this.#newest.get() as { newest: number | null }).newest ?? 0;
    if (newest < this.#lastRowid) {
      // The file was replaced or rows were removed: start again.
      this.database.exec('DELETE FROM temp.facts');
      this.#lastRowid = 0;
    }
    if (newest > this.#lastRowid) {
      this.#copy.run(this.#lastRowid, newest);
      this.#lastRowid = newest;
    }
  }

}
