import type pg from 'pg';
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
import { factColumns, factFromRow, failedAttemptClass, failedAttemptCondition } from '../sqlite/ledger-fact-columns.js';
import { decodeFactsCursor, encodeFactsCursor } from './postgres-facts-cursor.js';
import {
  type AttemptRow,
  type RequestRow,
  attemptColumns,
  attemptValues,
  requestColumns,
  requestValues,
  requestsPageFromRows,
} from '../sqlite/ledger-rows.js';
import { postgresLedgerMigrations } from './postgres-ledger-migrations.js';
import { applyPostgresMigrations } from './postgres-migrations.js';
import { type PostgresConnectionOptions, createPostgresPool, defaultPostgresSchema } from './postgres-pool.js';

/**
 * The SQL twin of `addToTotals`. Postgres returns BIGINT and NUMERIC as strings, so every aggregate is cast to
 * float8 (exact for counts and token sums below 2^53).
 */
const totalsColumns = `
  COUNT(*)::float8 AS "requests",
  COUNT(*) FILTER (WHERE status >= 400)::float8 AS "failedRequests",
  COALESCE(SUM(input_tokens), 0)::float8 AS "inputTokens",
  COALESCE(SUM(output_tokens), 0)::float8 AS "outputTokens",
  COALESCE(SUM(cache_read_tokens), 0)::float8 AS "cacheReadTokens",
  COALESCE(SUM(cache_write_tokens), 0)::float8 AS "cacheWriteTokens",
  COALESCE(SUM(reasoning_tokens), 0)::float8 AS "reasoningTokens",
  COALESCE(SUM(cost_usd), 0)::float8 AS "costUsd",
  COUNT(*) FILTER (WHERE cost_usd IS NULL)::float8 AS "unpricedRequests",
  COALESCE(SUM(usage_estimated), 0)::float8 AS "estimatedRequests"`;

/** `requests` columns as the shared row mapper expects them (epoch ms back as numbers, not strings). */
const requestSelect = requestColumns
  .map((column) => (column === 'started_at' ? 'started_at::float8 AS started_at' : column))
  .join(', ');
const attemptSelect = attemptColumns
  .map((column) => (column === 'started_at' ? 'started_at::float8 AS started_at' : column))
  .join(', ');

/** A number from the decision JSON, NULL when absent or not a number (a cast error would fail the whole feed). */
function decisionNumber(path: string): string {
  return `CASE WHEN jsonb_typeof(decision #> '{${path}}') = 'number' THEN (decision #>> '{${path}}')::float8 END`;
}

/** How many transactions above the horizon the facts cursor remembers as sent. */
const maximumSentTransactions = 2_000;

/** Postgres's twin of the SQLite fact columns: the same names, the decision parsed once per row. */
const postgresFactExpressions: Readonly<Record<(typeof factColumns)[number][0], string>> = {
  request_id: 'request_id',
  endpoint: 'endpoint',
  started_at: 'started_at::float8',
  session_id: 'session_id',
  requested_model: 'requested_model',
  served_provider: 'served_provider',
  served_model: 'served_model',
  status: 'status',
  attempt_count: 'attempt_count',
  input_tokens: 'input_tokens',
  output_tokens: 'output_tokens',
  cache_read_tokens: 'cache_read_tokens',
  cache_write_tokens: 'cache_write_tokens',
  reasoning_tokens: 'reasoning_tokens',
  cost_usd: 'cost_usd',
  usage_estimated: 'usage_estimated',
  total_ms: 'total_ms',
  time_to_first_byte_ms: 'time_to_first_byte_ms',
  tool_mode: `decision #>> '{tools,mode}'`,
  tool_outcome: `decision #>> '{tools,outcome}'`,
  full_schema_tokens: decisionNumber('tools,fullSchemaTokens'),
  sent_schema_tokens: decisionNumber('tools,sentSchemaTokens'),
  tool_recoveries: decisionNumber('tools,recoveries'),
  recovery_overhead_tokens: decisionNumber('tools,recoveryOverheadTokens'),
  model_policy: `decision #>> '{models,policy}'`,
  model_reason: `decision #>> '{models,reason}'`,
  anticipated_toolsets: `CASE WHEN jsonb_typeof(decision #> '{tools,anticipatedToolsets}') = 'array'
    THEN (SELECT string_agg(toolset, ',' ORDER BY ordinal) FROM jsonb_array_elements_text(decision #> '{tools,anticipatedToolsets}') WITH ORDINALITY AS listed (toolset, ordinal)) END`,
  session_agent: `decision #>> '{session,agent}'`,
  session_prompt: `decision #>> '{session,firstPrompt}'`,
  session_title: `decision #>> '{session,title}'`,
};
const factSelect = factColumns.map(([column]) => `${postgresFactExpressions[column]} AS ${column}`).join(', ');

/** Postgres type of every column, for the column arrays `unnest` turns back into rows. */
const requestTypes = {
  request_id: 'text',
  started_at: 'int8',
  session_id: 'text',
  client_key_id: 'text',
  inbound_format: 'text',
  endpoint: 'text',
  requested_model: 'text',
  served_provider: 'text',
  served_model: 'text',
  status: 'int4',
  error_class: 'text',
  streaming: 'int2',
  time_to_first_byte_ms: 'float8',
  total_ms: 'float8',
  overhead_ms: 'float8',
  input_tokens: 'int4',
  output_tokens: 'int4',
  cache_read_tokens: 'int4',
  cache_write_tokens: 'int4',
  reasoning_tokens: 'int4',
  usage_estimated: 'int2',
  cost_usd: 'float8',
  attempt_count: 'int4',
  decision_json: 'text',
  content_json: 'text',
} as const satisfies Record<(typeof requestColumns)[number], string>;

const attemptTypes = {
  request_id: 'text',
  ordinal: 'int4',
  provider: 'text',
  model: 'text',
  key_id: 'text',
  started_at: 'int8',
  duration_ms: 'float8',
  status: 'int4',
  error_class: 'text',
  error_message: 'text',
} as const satisfies Record<(typeof attemptColumns)[number], string>;

/**
 * One INSERT of any number of rows with a fixed statement: each column travels as one array parameter and
 * `unnest` zips them back into rows. The text stays the same for every batch (parsed once per connection as a
 * prepared statement) and binds 25 parameters instead of 25 per row.
 */
function unnestInsert(table: string, columns: readonly string[], types: Readonly<Record<string, string>>): string {
  const arrays = columns.map((column, index) => `$${index + 1}::${types[column] ?? 'text'}[]`).join(', ');
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${arrays})`;
}

const insertRequestsSql = `${unnestInsert('requests', requestColumns, requestTypes)} ON CONFLICT (request_id) DO NOTHING RETURNING request_id`;
const insertAttemptsSql = unnestInsert('attempts', attemptColumns, attemptTypes);

/** Rows (one array of values each) as one array per column. */
function toColumns(rows: readonly (readonly unknown[])[], width: number): unknown[][] {
  const columns: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rows) for (let index = 0; index < width; index += 1) columns[index]?.push(row[index] ?? null);
  return columns;
}

/** Positional parameters collected while a query is built. */
class Parameters {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function whereClause(filter: LedgerFilter, parameters: Parameters): string[] {
  const conditions: string[] = [];
  if (filter.since !== undefined) conditions.push(`started_at >= ${parameters.add(filter.since)}`);
  if (filter.until !== undefined) conditions.push(`started_at < ${parameters.add(filter.until)}`);
  if (filter.session !== undefined) conditions.push(`session_id = ${parameters.add(filter.session)}`);
  if (filter.model !== undefined) {
    const model = parameters.add(filter.model);
    conditions.push(`(served_model = ${model} OR requested_model = ${model})`);
  }
  return conditions;
}

function where(conditions: readonly string[]): string {
  return conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
}

function sortedModels(models: readonly (string | null)[] | null): string[] {
  // Sorted here, not by SQL, so the order is JavaScript's (bytewise) like every other store's.
  return (models ?? []).filter((model): model is string => typeof model === 'string').sort();
}

export interface PostgresLedgerStoreOptions extends PostgresConnectionOptions {
  /** Use this pool instead of opening one; the store then leaves it open on `close()`. */
  pool?: pg.Pool;
}

/**
 * The cluster ledger: every gateway instance writes its batches here and any of them (or the CLI) reports over
 * all of them. Migrations run before the first query; when the server is down that first query fails like any
 * other and the next one tries again, so a gateway can start while Postgres is away (the ledger queues).
 */
export class PostgresLedgerStore implements LedgerStore {
  readonly specificationVersion = 'v1';
  readonly schema: string;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  #ready: Promise<number> | undefined;
  #closed = false;

  constructor(options: PostgresLedgerStoreOptions) {
    this.schema = options.schema ?? defaultPostgresSchema;
    this.#ownsPool = options.pool === undefined;
    this.#pool = options.pool ?? createPostgresPool(options);
  }

  /** Opens the store and applies migrations now, so a wrong URL fails at once rather than at the first flush. */
  static async open(options: PostgresLedgerStoreOptions): Promise<PostgresLedgerStore> {
    const store = new PostgresLedgerStore(options);
    try {
      await store.ready();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** The schema version in force once migrations ran. */
  ready(): Promise<number> {
    this.#ready ??= applyPostgresMigrations(this.#pool, this.schema, 'ledger', postgresLedgerMigrations).catch(
      (error: unknown) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }

  async insertBatch(records: readonly RequestRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.ready();
    // A request id twice in one batch keeps its first copy, as two batches would.
    const unique = new Map<string, RequestRecord>();
    for (const record of records) if (!unique.has(record.requestId)) unique.set(record.requestId, record);
    const batch = [...unique.values()];
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const inserted = await client.query<{ request_id: string }>({
        name: 'hermes-ledger-insert-requests',
        text: insertRequestsSql,
        values: toColumns(batch.map(requestValues), requestColumns.length),
      });
      // A request already stored (a retried batch whose commit we did not see) keeps its first attempts.
      const fresh = new Set(inserted.rows.map((row) => row.request_id));
      const attempts = batch.filter((record) => fresh.has(record.requestId)).flatMap(attemptValues);
      if (attempts.length > 0) {
        await client.query({
          name: 'hermes-ledger-insert-attempts',
          text: insertAttemptsSql,
          values: toColumns(attempts, attemptColumns.length),
        });
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async totals(query: LedgerFilter = {}): Promise<LedgerTotals> {
    await this.ready();
    const parameters = new Parameters();
    const result = await this.#pool.query<LedgerTotals>(
      `SELECT ${totalsColumns} FROM requests ${where(whereClause(query, parameters))}`,
      parameters.values,
    );
    const row = result.rows[0];
    if (!row) throw new Error('postgres returned no totals row');
    return row;
  }

  async clientKeys(query: LedgerFilter = {}): Promise<ClientKeyRow[]> {
    await this.ready();
    const parameters = new Parameters();
    const conditions = [...whereClause(query, parameters), 'client_key_id IS NOT NULL'];
    const result = await this.#pool.query<ClientKeyRow>(
      `SELECT client_key_id AS "clientKeyId", ${totalsColumns} FROM requests ${where(conditions)} GROUP BY client_key_id`,
      parameters.values,
    );
    return result.rows.sort(compareClientKeyRows);
  }

  async daily(query: DailyQuery = {}): Promise<DailyRow[]> {
    await this.ready();
    const parameters = new Parameters();
    const conditions = whereClause(query, parameters);
    const offset = parameters.add(Math.trunc((query.utcOffsetMinutes ?? 0) * 60_000));
    const result = await this.#pool.query<Omit<DailyRow, 'models'> & { modelList: (string | null)[] | null }>(
      `SELECT to_char(to_timestamp((started_at + ${offset}::bigint) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "date",
              array_agg(DISTINCT served_model) AS "modelList",
              ${totalsColumns}
       FROM requests ${where(conditions)}
       GROUP BY 1 ORDER BY 1`,
      parameters.values,
    );
    return result.rows.map(({ modelList, ...row }) => ({ ...row, models: sortedModels(modelList) }));
  }

  async sessions(query: LedgerFilter = {}): Promise<SessionRow[]> {
    await this.ready();
    const parameters = new Parameters();
    const result = await this.#pool.query<Omit<SessionRow, 'models'> & { modelList: (string | null)[] | null }>(
      `SELECT session_id AS "sessionId",
              MIN(started_at)::float8 AS "firstStartedAt",
              MAX(started_at)::float8 AS "lastStartedAt",
              array_agg(DISTINCT served_model) AS "modelList",
              ${totalsColumns}
       FROM requests ${where(whereClause(query, parameters))}
       GROUP BY session_id`,
      parameters.values,
    );
    return result.rows
      .map(({ modelList, ...row }) => ({ ...row, models: sortedModels(modelList) }))
      .sort(compareSessionRows);
  }

  async models(query: LedgerFilter = {}): Promise<ModelRow[]> {
    await this.ready();
    const parameters = new Parameters();
    const result = await this.#pool.query<ModelRow>(
      `SELECT served_provider AS "provider",
              COALESCE(served_model, requested_model) AS "model",
              COUNT(*) FILTER (WHERE attempt_count - COALESCE((decision_json::jsonb #>> '{tools,recoveries}')::float8, 0) > 1)::float8 AS "failovers",
              AVG(total_ms)::float8 AS "averageTotalMs",
              AVG(overhead_ms)::float8 AS "averageOverheadMs",
              AVG(time_to_first_byte_ms)::float8 AS "averageTimeToFirstByteMs",
              ${totalsColumns}
       FROM requests ${where(whereClause(query, parameters))}
       GROUP BY served_provider, COALESCE(served_model, requested_model)`,
      parameters.values,
    );
    return result.rows.sort(compareModelRows);
  }

  async requests(query: RequestsQuery = {}): Promise<RequestsPage> {
    const limit = clampPageSize(query.limit, defaultRequestsPageSize, maximumRequestsPageSize);
    const cursor = query.cursor === undefined ? undefined : decodeLedgerCursor(query.cursor);
    await this.ready();
    const parameters = new Parameters();
    const conditions = whereClause(query, parameters);
    if (cursor !== undefined) {
      const startedAt = parameters.add(cursor.startedAt);
      const requestId = parameters.add(cursor.requestId);
      conditions.push(`(started_at < ${startedAt} OR (started_at = ${startedAt} AND request_id < ${requestId}))`);
    }
    const rows = (
      await this.#pool.query<RequestRow>(
        `SELECT ${requestSelect} FROM requests ${where(conditions)}
         ORDER BY requests.started_at DESC, requests.request_id DESC LIMIT ${parameters.add(limit + 1)}`,
        parameters.values,
      )
    ).rows;
    const pageRows = rows.slice(0, limit);
    const attemptRows =
      pageRows.length === 0
        ? []
        : (
            await this.#pool.query<AttemptRow>(
              `SELECT ${attemptSelect} FROM attempts WHERE request_id = ANY($1::text[]) ORDER BY request_id, ordinal`,
              [pageRows.map((row) => row.request_id)],
            )
          ).rows;
    return requestsPageFromRows(rows, limit, attemptRows);
  }

  /**
   * Pages in (inserting transaction, request id) order. A round starts by noting the horizon: the oldest
   * transaction still open anywhere. Every row below it is committed or never will be, so the next round starts
   * there, and a batch an instance commits late is still picked up; the transactions at or above it already sent
   * travel in the cursor and are skipped, so a quiet refresh sends nothing even while some transaction stays open.
   */
  async factsSince(query: LedgerFactsQuery = {}): Promise<LedgerFactsPage> {
    const limit = clampPageSize(query.limit, defaultFactsPageSize, maximumFactsPageSize);
    const cursor = decodeFactsCursor(query.cursor);
    await this.ready();
    const horizon =
      cursor.horizon ??
      (await this.#pool.query<{ horizon: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon')).rows[0]?.horizon ??
      cursor.stable;
    const parameters = new Parameters();
    const conditions = [`inserted_xid >= ${parameters.add(cursor.stable)}::xid8`];
    const skipped = cursor.sent ?? [];
    if (skipped.length > 0) conditions.push(`NOT (inserted_xid = ANY(${parameters.add(skipped)}::xid8[]))`);
    if (cursor.after !== undefined) {
      conditions.push(`(inserted_xid, request_id) > (${parameters.add(cursor.after[0])}::xid8, ${parameters.add(cursor.after[1])})`);
    }
    const rows = (
      // The page is chosen first (a LIMIT subquery), so the decision JSON is parsed for its rows only, not for
      // every row the sort looked at; `OFFSET 0` keeps the planner from inlining the parse into each of the seven
      // references (parsing each decision seven times). Ordered by the xid8 column itself, never by its text.
      await this.#pool.query<Record<string, unknown> & { inserted_transaction: string; request_id: string }>(
        `SELECT inserted_xid::text AS inserted_transaction, ${factSelect}
         FROM (SELECT * FROM requests ${where(conditions)} ORDER BY inserted_xid, request_id LIMIT ${parameters.add(limit + 1)}) AS requests,
              LATERAL (SELECT decision_json::jsonb AS decision OFFSET 0) AS parsed
         ORDER BY requests.inserted_xid, requests.request_id`,
        parameters.values,
      )
    ).rows;
    const page = rows.slice(0, limit);
    const failures = new Map<string, FailedAttempt[]>();
    if (page.length > 0) {
      const attempts = await this.#pool.query<{ request_id: string; provider: string; model: string; error_class: string }>(
        `SELECT request_id, provider, model, ${failedAttemptClass} AS error_class FROM attempts
         WHERE request_id = ANY($1::text[]) AND ${failedAttemptCondition} ORDER BY request_id, ordinal`,
        [page.map((row) => row.request_id)],
      );
      for (const attempt of attempts.rows) {
        const list = failures.get(attempt.request_id) ?? [];
        list.push({ provider: attempt.provider, model: attempt.model, errorClass: attempt.error_class });
        failures.set(attempt.request_id, list);
      }
    }
    const facts = page.map((row) => factFromRow(row, failures.get(row.request_id) ?? []));
    const last = page.at(-1);
    const more = rows.length > limit && last !== undefined;
    // A transaction's rows become visible together, so one seen here was sent whole and can be skipped from now
    // on, except when the page was cut inside it (the keyset goes on from there, and adds it once past). Only those
    // at or above the horizon need remembering: the next round starts there. Past the bound they are simply
    // sent again, which consumers ignore.
    const sent = new Set(skipped);
    if (cursor.after !== undefined) sent.add(cursor.after[0]);
    for (const row of page) sent.add(row.inserted_transaction);
    if (more && rows[limit]?.inserted_transaction === last.inserted_transaction) sent.delete(last.inserted_transaction);
    const remembered = [...sent].filter((transaction) => BigInt(transaction) >= BigInt(horizon)).slice(-maximumSentTransactions);
    const kept = remembered.length > 0 ? { sent: remembered } : {};
    if (more) {
      return { facts, cursor: encodeFactsCursor({ stable: cursor.stable, horizon, ...kept, after: [last.inserted_transaction, last.request_id] }), complete: false };
    }
    return { facts, cursor: encodeFactsCursor({ stable: horizon, ...kept }), complete: true };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsPool) await this.#pool.end();
  }
}
