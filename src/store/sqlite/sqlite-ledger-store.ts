import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { RequestRecord } from '../../core/ledger-record.js';
import { clampPageSize, decodeLedgerCursor } from '../ledger-cursor.js';
import type {
  ClientKeyRow,
  DailyQuery,
  DailyRow,
  LedgerFilter,
  LedgerStore,
  LedgerTotals,
  ModelRow,
  RequestsPage,
  RequestsQuery,
  SessionRow,
} from '../ledger-store.js';
import { defaultRequestsPageSize, maximumRequestsPageSize } from '../ledger-store.js';
import { type FailedAttempt, type LedgerFactsPage, type LedgerFactsQuery, defaultFactsPageSize, maximumFactsPageSize } from '../ledger-facts.js';
import { compareClientKeyRows, compareModelRows, compareSessionRows } from '../ledger-totals.js';
import { factFromRow, factSelect, failedAttemptClass, failedAttemptCondition, failoverCondition } from './ledger-fact-columns.js';
import { ledgerMigrations } from './ledger-migrations.js';
import {
  type AttemptRow,
  type RequestRow,
  attemptColumns,
  attemptValues,
  requestColumns,
  requestValues,
  requestsPageFromRows,
} from './ledger-rows.js';
import { applyMigrations } from './migrations.js';

export interface SqliteLedgerStoreOptions {
  /** Database file; its directory is created when missing. `:memory:` for a private in-memory database. */
  path: string;
  /** How long a writer waits for another process's lock before failing, in ms. */
  busyTimeoutMs?: number;
}

/** The SQL twin of `addToTotals`: every aggregate row selects these columns. */
const totalsColumns = `
  COUNT(*) AS requests,
  COALESCE(SUM(status >= 400), 0) AS failedRequests,
  COALESCE(SUM(input_tokens), 0) AS inputTokens,
  COALESCE(SUM(output_tokens), 0) AS outputTokens,
  COALESCE(SUM(cache_read_tokens), 0) AS cacheReadTokens,
  COALESCE(SUM(cache_write_tokens), 0) AS cacheWriteTokens,
  COALESCE(SUM(reasoning_tokens), 0) AS reasoningTokens,
  COALESCE(SUM(cost_usd), 0) AS costUsd,
  COALESCE(SUM(cost_usd IS NULL), 0) AS unpricedRequests,
  COALESCE(SUM(usage_estimated), 0) AS estimatedRequests`;

interface WhereClause {
  sql: string;
  parameters: Record<string, string | number>;
}

function whereClause(filter: LedgerFilter): WhereClause {
  const conditions: string[] = [];
  const parameters: Record<string, string | number> = {};
  if (filter.since !== undefined) {
    conditions.push('started_at >= @since');
    parameters.since = filter.since;
  }
  if (filter.until !== undefined) {
    conditions.push('started_at < @until');
    parameters.until = filter.until;
  }
  if (filter.session !== undefined) {
    conditions.push('session_id = @session');
    parameters.session = filter.session;
  }
  if (filter.model !== undefined) {
    conditions.push('(served_model = @model OR requested_model = @model)');
    parameters.model = filter.model;
  }
  return { sql: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, parameters };
}

function parseModelList(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((value): value is string => typeof value === 'string').sort();
}

/**
 * The embedded ledger: one SQLite file in WAL mode, so reports read while the gateway writes. `synchronous =
 * NORMAL` means a committed batch survives a killed process (the WAL is in the OS cache); only a power loss can
 * take back the last commits. better-sqlite3 is synchronous, so each call runs to completion on the caller's
 * thread; the ledger calls `insertBatch` from a timer, never from a request.
 */
export class SqliteLedgerStore implements LedgerStore {
  readonly specificationVersion = 'v1';
  readonly schemaVersion: number;
  readonly #database: Database.Database;
  readonly #insertBatch: (records: readonly RequestRecord[]) => void;

  constructor(options: SqliteLedgerStoreOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.#database = new Database(options.path);
    this.#database.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    // synchronous first: a new file's switch to WAL is a write of its header, which under the default (FULL)
    // syncs a rollback journal and the file, ~10 ms of a first start's wait for the disk (the same settings either way).
    this.#database.pragma('synchronous = NORMAL');
    this.#database.pragma('journal_mode = WAL');
    this.#database.pragma('foreign_keys = ON');
    this.schemaVersion = applyMigrations(this.#database, ledgerMigrations);

    const placeholders = (count: number): string => Array.from({ length: count }, () => '?').join(', ');
    const insertRequest = this.#database.prepare(
      `INSERT INTO requests (${requestColumns.join(', ')}) VALUES (${placeholders(requestColumns.length)})
       ON CONFLICT (request_id) DO NOTHING`,
    );
    const insertAttempt = this.#database.prepare(
      `INSERT INTO attempts (${attemptColumns.join(', ')}) VALUES (${placeholders(attemptColumns.length)})`,
    );
    this.#insertBatch = this.#database.transaction((records: readonly RequestRecord[]) => {
      for (const record of records) {
        // A request already stored (a retried batch whose commit we did not see) keeps its first attempts.
        if (insertRequest.run(requestValues(record)).changes === 0) continue;
        for (const attempt of attemptValues(record)) insertAttempt.run(attempt);
      }
    });
  }

  async insertBatch(records: readonly RequestRecord[]): Promise<void> {
    if (records.length > 0) this.#insertBatch(records);
  }

  async totals(query: LedgerFilter = {}): Promise<LedgerTotals> {
    const where = whereClause(query);
    return this.#database.prepare(`SELECT ${totalsColumns} FROM requests ${where.sql}`).get(where.parameters) as
      LedgerTotals;
  }

  async clientKeys(query: LedgerFilter = {}): Promise<ClientKeyRow[]> {
    const where = whereClause(query);
    const keyed = where.sql === '' ? 'WHERE client_key_id IS NOT NULL' : `${where.sql} AND client_key_id IS NOT NULL`;
    const rows = this.#database
      .prepare(`SELECT client_key_id AS clientKeyId, ${totalsColumns} FROM requests ${keyed} GROUP BY client_key_id`)
      .all(where.parameters) as ClientKeyRow[];
    return rows.sort(compareClientKeyRows);
  }

  async daily(query: DailyQuery = {}): Promise<DailyRow[]> {
    const where = whereClause(query);
    const rows = this.#database
      .prepare(
        `SELECT strftime('%Y-%m-%d', (started_at + @offsetMs) / 1000, 'unixepoch') AS date,
                json_group_array(DISTINCT served_model) AS modelsJson,
                ${totalsColumns}
         FROM requests ${where.sql}
         GROUP BY date ORDER BY date`,
      )
      .all({ ...where.parameters, offsetMs: Math.trunc((query.utcOffsetMinutes ?? 0) * 60_000) }) as (Omit<
      DailyRow,
      'models'
    > & { modelsJson: string })[];
    return rows.map(({ modelsJson, ...row }) => ({ ...row, models: parseModelList(modelsJson) }));
  }

  async sessions(query: LedgerFilter = {}): Promise<SessionRow[]> {
    const where = whereClause(query);
    const rows = this.#database
      .prepare(
        `SELECT session_id AS sessionId,
                MIN(started_at) AS firstStartedAt,
                MAX(started_at) AS lastStartedAt,
                json_group_array(DISTINCT served_model) AS modelsJson,
                ${totalsColumns}
         FROM requests ${where.sql}
         GROUP BY session_id`,
      )
      .all(where.parameters) as (Omit<SessionRow, 'models'> & { modelsJson: string })[];
    return rows.map(({ modelsJson, ...row }) => ({ ...row, models: parseModelList(modelsJson) })).sort(compareSessionRows);
  }

  async models(query: LedgerFilter = {}): Promise<ModelRow[]> {
    const where = whereClause(query);
    const rows = this.#database
      .prepare(
        `SELECT served_provider AS provider,
                COALESCE(served_model, requested_model) AS model,
                COALESCE(SUM(${failoverCondition}), 0) AS failovers,
                AVG(total_ms) AS averageTotalMs,
                AVG(overhead_ms) AS averageOverheadMs,
                AVG(time_to_first_byte_ms) AS averageTimeToFirstByteMs,
                ${totalsColumns}
         FROM requests ${where.sql}
         GROUP BY served_provider, COALESCE(served_model, requested_model)`,
      )
      .all(where.parameters) as ModelRow[];
    // A handful of rows: ordering them with the shared comparator keeps every store's order identical.
    return rows.sort(compareModelRows);
  }

  async requests(query: RequestsQuery = {}): Promise<RequestsPage> {
    const limit = clampPageSize(query.limit, defaultRequestsPageSize, maximumRequestsPageSize);
    const where = whereClause(query);
    const parameters: Record<string, string | number> = { ...where.parameters, limit: limit + 1 };
    let sql = where.sql;
    if (query.cursor !== undefined) {
      const cursor = decodeLedgerCursor(query.cursor);
      const condition =
        '(started_at < @cursorStartedAt OR (started_at = @cursorStartedAt AND request_id < @cursorRequestId))';
      sql = sql === '' ? `WHERE ${condition}` : `${sql} AND ${condition}`;
      parameters.cursorStartedAt = cursor.startedAt;
      parameters.cursorRequestId = cursor.requestId;
    }
    const rows = this.#database
      .prepare(`SELECT * FROM requests ${sql} ORDER BY started_at DESC, request_id DESC LIMIT @limit`)
      .all(parameters) as RequestRow[];
    const pageRows = rows.slice(0, limit);
    const attemptRows =
      pageRows.length === 0
        ? []
        : (this.#database
            .prepare(`SELECT * FROM attempts WHERE request_id IN (SELECT value FROM json_each(?)) ORDER BY request_id, ordinal`)
            .all(JSON.stringify(pageRows.map((row) => row.request_id))) as AttemptRow[]);
    return requestsPageFromRows(rows, limit, attemptRows);
  }

  /** Cursor: the last rowid returned. One writer appends, so rowids grow in commit order and none is skipped. */
  async factsSince(query: LedgerFactsQuery = {}): Promise<LedgerFactsPage> {
    const limit = clampPageSize(query.limit, defaultFactsPageSize, maximumFactsPageSize);
    const after = query.cursor === undefined ? 0 : Number(query.cursor);
    if (!Number.isInteger(after) || after < 0) throw new Error(`invalid facts cursor: ${query.cursor}`);
    const rows = this.#database
      .prepare(`SELECT rowid AS source_rowid, ${factSelect} FROM requests WHERE rowid > ? ORDER BY rowid LIMIT ?`)
      .all(after, limit + 1) as (Record<string, unknown> & { source_rowid: number; request_id: string })[];
    const page = rows.slice(0, limit);
    const failures = new Map<string, FailedAttempt[]>();
    if (page.length > 0) {
      const attempts = this.#database
        .prepare(
          `SELECT request_id, provider, model, ${failedAttemptClass} AS error_class FROM attempts
           WHERE request_id IN (SELECT value FROM json_each(?)) AND ${failedAttemptCondition} ORDER BY request_id, ordinal`,
        )
        .all(JSON.stringify(page.map((row) => row.request_id))) as { request_id: string; provider: string; model: string; error_class: string }[];
      for (const attempt of attempts) {
        const list = failures.get(attempt.request_id) ?? [];
        list.push({ provider: attempt.provider, model: attempt.model, errorClass: attempt.error_class });
        failures.set(attempt.request_id, list);
      }
    }
    return {
      facts: page.map((row) => factFromRow(row, failures.get(row.request_id) ?? [])),
      cursor: String(page.at(-1)?.source_rowid ?? after),
      complete: rows.length <= limit,
    };
  }

  async close(): Promise<void> {
    if (this.#database.open) this.#database.close();
  }
}
