import Database from 'better-sqlite3';
import { factSelect, failedAttemptClass, failedAttemptCondition } from '../store/sqlite/ledger-fact-columns.js';
import { type LedgerMirror, clearFactTables, createFactTables, factColumnList } from './ledger-mirror.js';

/**
 * The copy of a `ledger.sqlite` file, made inside SQLite (no row crosses into JavaScript): the file is opened
 * read-only, so SQLite refuses any write to it, yet the connection may keep TEMP tables. It catches up by rowid
 * (one gateway appends to the file). WAL lets it read while the gateway writes.
 */
export class SqliteFileMirror implements LedgerMirror {
  readonly database: Database.Database;
  #lastRowid = 0;
  readonly #copyFacts: Database.Statement;
  readonly #copyAttemptErrors: Database.Statement;
  readonly #newest: Database.Statement;

  constructor(path: string, busyTimeoutMs = 5_000) {
    this.database = new Database(path, { readonly: true, fileMustExist: true });
    this.database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    // `query_only` is not set: it would also forbid the TEMP copy; the read-only open is the guarantee.
    createFactTables(this.database, { uniqueRequests: false });
    this.#copyFacts = this.database.prepare(
      `INSERT OR IGNORE INTO temp.facts (${factColumnList})
       SELECT ${factSelect} FROM main.requests WHERE rowid > ? AND rowid <= ?`,
    );
    this.#copyAttemptErrors = this.database.prepare(
      `INSERT INTO temp.attempt_errors
       SELECT attempts.request_id, attempts.provider, attempts.model, ${failedAttemptClass}
       FROM main.requests AS requests JOIN main.attempts AS attempts ON attempts.request_id = requests.request_id
       WHERE requests.rowid > ? AND requests.rowid <= ? AND ${failedAttemptCondition}`,
    );
    this.#newest = this.database.prepare('SELECT MAX(rowid) AS newest FROM main.requests');
  }

  get version(): number {
    return this.#lastRowid;
  }

  /** Copies the rows written since the last call, synchronously. */
  catchUp(): void {
    const newest = (this.#newest.get() as { newest: number | null }).newest ?? 0;
    if (newest < this.#lastRowid) {
      // The file was replaced or rows were removed: start again.
      clearFactTables(this.database);
      this.#lastRowid = 0;
    }
    if (newest > this.#lastRowid) {
      const from = this.#lastRowid;
      this.database.transaction(() => {
        this.#copyFacts.run(from, newest);
        this.#copyAttemptErrors.run(from, newest);
      })();
      this.#lastRowid = newest;
    }
  }

  async sync(): Promise<void> {
    this.catchUp();
  }

  async close(): Promise<void> {
    if (this.database.open) this.database.close();
  }
}
