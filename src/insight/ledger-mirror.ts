import type Database from 'better-sqlite3';
import { factColumns } from '../store/sqlite/ledger-fact-columns.js';

/**
 * The compact copy of the ledger the insight queries run on: `facts` (one row per request, the routing
 * decision's fields pulled out once, see `LedgerFact`) and `attempt_errors` (its failed upstream attempts), both
 * TEMP tables of one SQLite connection. The ledger rows are wide (decision JSON, sometimes content), so scanning
 * them and parsing JSON on every dashboard refresh cost seconds at 100,000 rows; the copy is scanned in tens of ms
 * and every view still aggregates in SQL, in one dialect whichever store holds the ledger.
 *
 * Two ways to fill it: `SqliteFileMirror` copies inside SQLite from a ledger file opened read-only;
 * `StoreMirror` pages through any `LedgerStore`'s facts feed (the cluster's Postgres).
 */
export interface LedgerMirror {
  /** The connection whose temp database holds `facts` and `attempt_errors`. */
  readonly database: Database.Database;
  /** Changes whenever rows were added: results computed at the same version are still current. */
  readonly version: number;
  /** Catches up with the ledger; concurrent calls share one catch-up. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

const columnTypes: Readonly<Record<(typeof factColumns)[number][0], string>> = {
  request_id: 'TEXT NOT NULL',
  endpoint: 'TEXT NOT NULL',
  started_at: 'INTEGER NOT NULL',
  session_id: 'TEXT',
  requested_model: 'TEXT NOT NULL',
  served_provider: 'TEXT',
  served_model: 'TEXT',
  status: 'INTEGER NOT NULL',
  attempt_count: 'INTEGER NOT NULL',
  input_tokens: 'INTEGER',
  output_tokens: 'INTEGER',
  cache_read_tokens: 'INTEGER',
  cache_write_tokens: 'INTEGER',
  reasoning_tokens: 'INTEGER',
  cost_usd: 'REAL',
  usage_estimated: 'INTEGER NOT NULL',
  total_ms: 'REAL NOT NULL',
  time_to_first_byte_ms: 'REAL',
  tool_mode: 'TEXT',
  tool_outcome: 'TEXT',
  full_schema_tokens: 'INTEGER',
  sent_schema_tokens: 'INTEGER',
  tool_recoveries: 'INTEGER',
  recovery_overhead_tokens: 'INTEGER',
  model_policy: 'TEXT',
  model_reason: 'TEXT',
  anticipated_toolsets: 'TEXT',
  session_agent: 'TEXT',
  session_prompt: 'TEXT',
  session_title: 'TEXT',
};

/** The fact columns in `LedgerFact` order, for INSERT lists. */
export const factColumnList = factColumns.map(([column]) => column).join(', ');

/**
 * Creates the (empty) copy in the connection's temp database. `uniqueRequests` (a feed that may send a fact
 * twice) adds the index that lets `INSERT OR IGNORE` keep the first copy; a copy by rowid range needs none.
 */
export function createFactTables(database: Database.Database, options: { uniqueRequests: boolean }): void {
  database.exec(`
    CREATE TEMP TABLE facts (${factColumns.map(([column]) => `${column} ${columnTypes[column]}`).join(', ')});
    ${options.uniqueRequests ? 'CREATE UNIQUE INDEX temp.facts_by_request ON facts (request_id);' : ''}
    CREATE INDEX temp.facts_by_time ON facts (started_at);
    CREATE INDEX temp.facts_by_session ON facts (session_id, started_at);
    CREATE TEMP TABLE attempt_errors (request_id TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL, error_class TEXT NOT NULL);
    CREATE INDEX temp.attempt_errors_by_request ON attempt_errors (request_id);
  `);
}

export function clearFactTables(database: Database.Database): void {
  database.exec('DELETE FROM temp.facts; DELETE FROM temp.attempt_errors;');
}
