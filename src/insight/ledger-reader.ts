import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { LedgerFilter } from '../store/ledger-store.js';

/** Rows summed by (day, served deployment, requested model, priced, read from cache): what savings are priced from. */
export interface UsageGroup {
  /** `YYYY-MM-DD` at the query's offset, or `all` when not split by day. */
  bucket: string;
  provider: string | null;
  model: string | null;
  requestedModel: string;
  /** The row has a cost (`cost_usd` not NULL). */
  priced: boolean;
  /** The row read some of its prompt from the provider's cache. */
  cached: boolean;
  requests: number;
  failedRequests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costUsd: number;
  /** Tool-schema tokens the narrowed surface left out (full − sent), only where routing was `on`. */
  removedSchemaTokens: number;
}

/** Everything the quality score of one session is computed from, measured in SQL. */
export interface SessionStats {
  sessionId: string;
  requests: number;
  failedRequests: number;
  /** Requests that needed more than one upstream attempt. */
  failovers: number;
  /** Failovers that ended in a successful answer. */
  recoveredFailovers: number;
  /** Times a narrowed tool surface had to be widened in the session. */
  toolRecoveries: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  costUsd: number;
  unpricedRequests: number;
  firstStartedAt: number;
  lastStartedAt: number;
  /** Provider-reported prompt tokens of the latest successful request with usage (not a cumulative total). */
  latestInputTokens: number | null;
  latestProvider: string | null;
  latestModel: string | null;
  /** Whether that latest figure was estimated with a tokenizer rather than reported. */
  latestEstimated: boolean;
  /** Requests whose prompt shrank sharply from the one before: the client rewrote (compacted) its history. */
  compactions: number;
  /** Sum of tool-schema tokens sent. */
  sentSchemaTokens: number;
}

export interface TimelineRow {
  requestId: string;
  startedAt: number;
  status: number;
  requestedModel: string;
  servedProvider: string | null;
  servedModel: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  costUsd: number | null;
  attempts: number;
  totalMs: number;
  toolOutcome: string | null;
  fullSchemaTokens: number | null;
  sentSchemaTokens: number | null;
  modelPolicy: string | null;
  modelReason: string | null;
}

export interface ToolRoutingRow {
  mode: string;
  outcome: string;
  requests: number;
  fullSchemaTokens: number;
  sentSchemaTokens: number;
  recoveries: number;
}

export interface ModelRouteRow {
  policy: string;
  requestedModel: string;
  servedModel: string | null;
  requests: number;
  failovers: number;
  failed: number;
}

export interface AttemptErrorRow {
  provider: string;
  model: string;
  errorClass: string;
  attempts: number;
}

export interface SchemaOverheadRow {
  requestId: string;
  startedAt: number;
  sessionId: string | null;
  servedModel: string | null;
  fullSchemaTokens: number;
  sentSchemaTokens: number;
  inputTokens: number | null;
}

export interface ModelStatsRow {
  provider: string | null;
  model: string;
  requests: number;
  failedRequests: number;
  failovers: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unpricedRequests: number;
  averageTotalMs: number;
  averageTimeToFirstByteMs: number | null;
  lastStartedAt: number;
}

export interface SessionQuery extends LedgerFilter {
  /** Substring of the session id. */
  search?: string;
}

interface Where {
  sql: string;
  parameters: Record<string, string | number>;
}

function whereFor(filter: SessionQuery, alias = ''): Where {
  const column = (name: string): string => `${alias}${name}`;
  const conditions: string[] = [];
  const parameters: Record<string, string | number> = {};
  if (filter.since !== undefined) {
    conditions.push(`${column('started_at')} >= @since`);
    parameters.since = filter.since;
  }
  if (filter.until !== undefined) {
    conditions.push(`${column('started_at')} < @until`);
    parameters.until = filter.until;
  }
  if (filter.session !== undefined) {
    conditions.push(`${column('session_id')} = @session`);
    parameters.session = filter.session;
  }
  if (filter.model !== undefined) {
    conditions.push(`(${column('served_model')} = @model OR ${column('requested_model')} = @model)`);
    parameters.model = filter.model;
  }
  if (filter.search !== undefined && filter.search !== '') {
    // instr, not LIKE: a search for `50%` means those characters.
    conditions.push(`instr(${column('session_id')}, @search) > 0`);
    parameters.search = filter.search;
  }
  return { sql: conditions.join(' AND '), parameters };
}

function and(where: Where, extra: string): string {
  return [where.sql, extra].filter((part) => part !== '').join(' AND ') || '1';
}

/** Removed schema tokens of one row; 0 unless tool routing was on and both figures were recorded. */
const removedSchemaSql = `CASE WHEN json_extract(decision_json, '$.tools.mode') = 'on'
    AND json_extract(decision_json, '$.tools.fullSchemaTokens') IS NOT NULL
    AND json_extract(decision_json, '$.tools.sentSchemaTokens') IS NOT NULL
  THEN MAX(json_extract(decision_json, '$.tools.fullSchemaTokens') - json_extract(decision_json, '$.tools.sentSchemaTokens'), 0)
  ELSE 0 END`;

/**
 * Read-only SQL over the ledger file for insight and the dashboard. It opens its own connection with
 * `readonly` and `query_only`, so nothing here can change the ledger the gateway writes; WAL lets it read while
 * the gateway writes. Every method aggregates in SQL and returns small results.
 */
export class LedgerReader {
  readonly #database: Database.Database;

  private constructor(database: Database.Database) {
    this.#database = database;
  }

  /** Undefined when the ledger file does not exist yet (the gateway creates it on its first request). */
  static open(path: string, busyTimeoutMs = 5_000): LedgerReader | undefined {
    if (!existsSync(path)) return undefined;
    const database = new Database(path, { readonly: true, fileMustExist: true });
    database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    database.pragma('query_only = ON');
    return new LedgerReader(database);
  }

  close(): void {
    if (this.#database.open) this.#database.close();
  }

  /** Usage summed per group; `byDay` splits by day at `utcOffsetMinutes` east of UTC. */
  usageGroups(filter: LedgerFilter = {}, options: { byDay?: boolean; utcOffsetMinutes?: number } = {}): UsageGroup[] {
    const where = whereFor(filter);
    const bucket = options.byDay
      ? `strftime('%Y-%m-%d', (started_at + @offsetMs) / 1000, 'unixepoch')`
      : `'all'`;
    const rows = this.#database
      .prepare(
        `SELECT ${bucket} AS bucket,
                served_provider AS provider,
                served_model AS model,
                requested_model AS requestedModel,
                cost_usd IS NOT NULL AS priced,
                COALESCE(cache_read_tokens, 0) > 0 AS cached,
                COUNT(*) AS requests,
                COALESCE(SUM(status >= 400), 0) AS failedRequests,
                COALESCE(SUM(input_tokens), 0) AS inputTokens,
                COALESCE(SUM(output_tokens), 0) AS outputTokens,
                COALESCE(SUM(cache_read_tokens), 0) AS cacheReadTokens,
                COALESCE(SUM(cache_write_tokens), 0) AS cacheWriteTokens,
                COALESCE(SUM(reasoning_tokens), 0) AS reasoningTokens,
                COALESCE(SUM(cost_usd), 0) AS costUsd,
                COALESCE(SUM(${removedSchemaSql}), 0) AS removedSchemaTokens
         FROM requests WHERE ${and(where, '')}
         GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1`,
      )
      .all({ ...where.parameters, offsetMs: Math.trunc((options.utcOffsetMinutes ?? 0) * 60_000) }) as (Omit<
      UsageGroup,
      'priced' | 'cached'
    > & { priced: number; cached: number })[];
    return rows.map((row) => ({ ...row, priced: row.priced === 1, cached: row.cached === 1 }));
  }

  /** One row per session (requests without a session are left out), in no particular order. */
  sessionStats(query: SessionQuery = {}): SessionStats[] {
    const where = whereFor(query);
    const rows = this.#database
      .prepare(
        `WITH scoped AS (
           SELECT request_id, session_id, started_at, status, attempt_count, input_tokens, output_tokens,
                  cache_read_tokens, cost_usd, served_provider, served_model, usage_estimated,
                  COALESCE(json_extract(decision_json, '$.tools.recoveries'), 0) AS tool_recoveries,
                  COALESCE(json_extract(decision_json, '$.tools.sentSchemaTokens'), 0) AS sent_schema,
                  (status < 400 AND input_tokens IS NOT NULL) AS measured
           FROM requests WHERE ${and(where, 'session_id IS NOT NULL')}
         ),
         ranked AS (
           SELECT *,
                  ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY measured DESC, started_at DESC, request_id DESC) AS recency,
                  CASE WHEN measured THEN LAG(input_tokens) OVER (PARTITION BY session_id, measured ORDER BY started_at, request_id) END AS previous_input
           FROM scoped
         )
         SELECT session_id AS sessionId,
                COUNT(*) AS requests,
                COALESCE(SUM(status >= 400), 0) AS failedRequests,
                COALESCE(SUM(attempt_count > 1), 0) AS failovers,
                COALESCE(SUM(attempt_count > 1 AND status < 400), 0) AS recoveredFailovers,
                COALESCE(SUM(tool_recoveries), 0) AS toolRecoveries,
                COALESCE(SUM(input_tokens), 0) AS inputTokens,
                COALESCE(SUM(output_tokens), 0) AS outputTokens,
                COALESCE(SUM(cache_read_tokens), 0) AS cacheReadTokens,
                COALESCE(SUM(cost_usd), 0) AS costUsd,
                COALESCE(SUM(cost_usd IS NULL), 0) AS unpricedRequests,
                MIN(started_at) AS firstStartedAt,
                MAX(started_at) AS lastStartedAt,
                MAX(CASE WHEN recency = 1 AND measured THEN input_tokens END) AS latestInputTokens,
                MAX(CASE WHEN recency = 1 AND measured THEN served_provider END) AS latestProvider,
                MAX(CASE WHEN recency = 1 AND measured THEN served_model END) AS latestModel,
                COALESCE(MAX(CASE WHEN recency = 1 AND measured THEN usage_estimated END), 0) AS latestEstimated,
                COALESCE(SUM(previous_input >= ${compactionMinimumPrompt} AND input_tokens < previous_input * ${compactionShrink}), 0) AS compactions,
                COALESCE(SUM(sent_schema), 0) AS sentSchemaTokens
         FROM ranked GROUP BY session_id`,
      )
      .all(where.parameters) as (Omit<SessionStats, 'latestEstimated'> & { latestEstimated: number })[];
    return rows.map((row) => ({ ...row, latestEstimated: row.latestEstimated === 1 }));
  }

  /** The requests of one session, oldest first, at most `limit` from `offset`. */
  sessionTimeline(sessionId: string, options: { limit?: number; offset?: number } = {}): TimelineRow[] {
    return this.#database
      .prepare(
        `SELECT request_id AS requestId, started_at AS startedAt, status, requested_model AS requestedModel,
                served_provider AS servedProvider, served_model AS servedModel, input_tokens AS inputTokens,
                output_tokens AS outputTokens, cache_read_tokens AS cacheReadTokens,
                cache_write_tokens AS cacheWriteTokens, cost_usd AS costUsd, attempt_count AS attempts,
                total_ms AS totalMs,
                json_extract(decision_json, '$.tools.outcome') AS toolOutcome,
                json_extract(decision_json, '$.tools.fullSchemaTokens') AS fullSchemaTokens,
                json_extract(decision_json, '$.tools.sentSchemaTokens') AS sentSchemaTokens,
                json_extract(decision_json, '$.models.policy') AS modelPolicy,
                json_extract(decision_json, '$.models.reason') AS modelReason
         FROM requests WHERE session_id = @session
         ORDER BY started_at, request_id LIMIT @limit OFFSET @offset`,
      )
      .all({ session: sessionId, limit: Math.min(Math.max(options.limit ?? 500, 1), 5_000), offset: Math.max(options.offset ?? 0, 0) }) as TimelineRow[];
  }

  toolRouting(filter: LedgerFilter = {}): ToolRoutingRow[] {
    const where = whereFor(filter);
    return this.#database
      .prepare(
        `SELECT json_extract(decision_json, '$.tools.mode') AS mode,
                json_extract(decision_json, '$.tools.outcome') AS outcome,
                COUNT(*) AS requests,
                COALESCE(SUM(json_extract(decision_json, '$.tools.fullSchemaTokens')), 0) AS fullSchemaTokens,
                COALESCE(SUM(json_extract(decision_json, '$.tools.sentSchemaTokens')), 0) AS sentSchemaTokens,
                COALESCE(SUM(json_extract(decision_json, '$.tools.recoveries')), 0) AS recoveries
         FROM requests WHERE ${and(where, "json_extract(decision_json, '$.tools') IS NOT NULL")}
         GROUP BY 1, 2 ORDER BY 3 DESC`,
      )
      .all(where.parameters) as ToolRoutingRow[];
  }

  modelRoutes(filter: LedgerFilter = {}, limit = 50): ModelRouteRow[] {
    const where = whereFor(filter);
    return this.#database
      .prepare(
        `SELECT COALESCE(json_extract(decision_json, '$.models.policy'), '(none)') AS policy,
                requested_model AS requestedModel, served_model AS servedModel,
                COUNT(*) AS requests,
                COALESCE(SUM(attempt_count > 1), 0) AS failovers,
                COALESCE(SUM(status >= 400), 0) AS failed
         FROM requests WHERE ${and(where, '')}
         GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT @limit`,
      )
      .all({ ...where.parameters, limit }) as ModelRouteRow[];
  }

  /** Failed upstream attempts by deployment and error class: what opened breakers and caused failovers. */
  attemptErrors(filter: LedgerFilter = {}, limit = 50): AttemptErrorRow[] {
    const where = whereFor(filter, 'requests.');
    return this.#database
      .prepare(
        `SELECT attempts.provider AS provider, attempts.model AS model,
                COALESCE(attempts.error_class, 'status ' || attempts.status) AS errorClass, COUNT(*) AS attempts
         FROM attempts JOIN requests ON requests.request_id = attempts.request_id
         WHERE ${and(where, '(attempts.status >= 400 OR attempts.status = 0 OR attempts.error_class IS NOT NULL)')}
         GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT @limit`,
      )
      .all({ ...where.parameters, limit }) as AttemptErrorRow[];
  }

  /** Traffic, failures and latency per served deployment. */
  modelStats(filter: LedgerFilter = {}): ModelStatsRow[] {
    const where = whereFor(filter);
    return this.#database
      .prepare(
        `SELECT served_provider AS provider, COALESCE(served_model, requested_model) AS model,
                COUNT(*) AS requests, COALESCE(SUM(status >= 400), 0) AS failedRequests,
                COALESCE(SUM(attempt_count > 1), 0) AS failovers,
                COALESCE(SUM(input_tokens), 0) AS inputTokens, COALESCE(SUM(output_tokens), 0) AS outputTokens,
                COALESCE(SUM(cost_usd), 0) AS costUsd, COALESCE(SUM(cost_usd IS NULL), 0) AS unpricedRequests,
                AVG(total_ms) AS averageTotalMs, AVG(time_to_first_byte_ms) AS averageTimeToFirstByteMs,
                MAX(started_at) AS lastStartedAt
         FROM requests WHERE ${and(where, '')}
         GROUP BY 1, 2 ORDER BY 3 DESC`,
      )
      .all(where.parameters) as ModelStatsRow[];
  }

  /** The requests that sent the most tool-schema tokens. */
  largestSchemaOverheads(filter: LedgerFilter = {}, limit = 20): SchemaOverheadRow[] {
    const where = whereFor(filter);
    return this.#database
      .prepare(
        `SELECT request_id AS requestId, started_at AS startedAt, session_id AS sessionId, served_model AS servedModel,
                COALESCE(json_extract(decision_json, '$.tools.fullSchemaTokens'), 0) AS fullSchemaTokens,
                json_extract(decision_json, '$.tools.sentSchemaTokens') AS sentSchemaTokens,
                input_tokens AS inputTokens
         FROM requests WHERE ${and(where, "json_extract(decision_json, '$.tools.sentSchemaTokens') > 0")}
         ORDER BY sentSchemaTokens DESC, started_at DESC LIMIT @limit`,
      )
      .all({ ...where.parameters, limit }) as SchemaOverheadRow[];
  }
}

/** A prompt at least this large that shrinks below this fraction of itself was rewritten by the client. */
export const compactionMinimumPrompt = 8_000;
export const compactionShrink = 0.6;
