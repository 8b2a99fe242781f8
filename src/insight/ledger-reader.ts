import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { LedgerFilter, LedgerStore, UsageSums } from '../store/ledger-store.js';
import type { LedgerMirror } from './ledger-mirror.js';
import { hermesImportEndpoint } from './hermes-import.js';
import { SqliteFileMirror } from './sqlite-file-mirror.js';
import { StoreMirror } from './store-mirror.js';

/** Rows summed by (day, served deployment, requested model, priced, read from cache): what savings are priced from. */
export interface UsageGroup extends UsageSums {
  /** `YYYY-MM-DD` at the query's offset, or `all` when not split by day. */
  bucket: string;
  provider: string | null;
  model: string | null;
  requestedModel: string;
  /** The row has a cost (`cost_usd` not NULL). */
  priced: boolean;
  /** The row read some of its prompt from the provider's cache. */
  cached: boolean;
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
  /** Tokens billed for the upstream answers those recoveries replaced: in the cost, not in the client's usage. */
  recoveryOverheadTokens: number;
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
  cacheWriteTokens: number;
  /** Requests that changed the tool surface: a later turn grew it (anticipation) or the model asked (recovery). */
  surfaceChanges: number;
  /** What makes the session recognisable (`ledger.session_labels`), from any of its requests, whatever the filter. */
  agent: string | null;
  firstPrompt: string | null;
  /** The latest title the agent generated for it. */
  title: string | null;
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
  recoveryOverheadTokens: number | null;
  modelPolicy: string | null;
  modelReason: string | null;
}

/** Cache reads and writes of one session on one served deployment: what its prompt-cache saving is priced from. */
export interface SessionCacheRow {
  sessionId: string;
  provider: string;
  model: string;
  requests: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** One request that changed the tool surface, with the prompt tokens it sent and what of them the cache held. */
export interface SurfaceChangeRow {
  requestId: string;
  sessionId: string;
  startedAt: number;
  servedProvider: string | null;
  servedModel: string | null;
  /** Comma-separated toolsets added before the call; null when the change was a recovery only. */
  anticipatedToolsets: string | null;
  /** request_toolset re-issues inside the request (each one sent a grown surface). */
  recoveries: number;
  inputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
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

/** A request that changed the tool surface: toolsets added before the call, or a request_toolset re-issue. */
const surfaceChangeSql = `(anticipated_toolsets IS NOT NULL OR COALESCE(tool_recoveries, 0) > 0)`;

/** Removed schema tokens of one row; 0 unless tool routing was on and both figures were recorded. */
const removedSchemaSql = `CASE WHEN tool_mode = 'on' AND full_schema_tokens IS NOT NULL AND sent_schema_tokens IS NOT NULL
  THEN MAX(full_schema_tokens - sent_schema_tokens, 0)
  ELSE 0 END`;

/**
 * Read-only SQL for insight and the dashboard, over a compact copy of the ledger (`LedgerMirror`): a
 * `ledger.sqlite` file opened read-only, or any `LedgerStore` (the cluster's Postgres) through its facts feed.
 * Nothing here can change the ledger. Queries read the copy as of the last `refresh()`.
 */
export class LedgerReader {
  readonly #mirror: LedgerMirror;

  private constructor(mirror: LedgerMirror) {
    this.#mirror = mirror;
  }

  readonly #memo = new Map<string, { version: number; value: unknown }>();

  /**
   * The heavy aggregates are remembered until the ledger gains a row, so the dashboard's live refresh and views
   * that share one aggregate (sessions, quality, waste) cost one computation per change, not one per call.
   */
  #remember<T>(key: string, compute: () => T): T {
    const version = this.#mirror.version;
    const cached = this.#memo.get(key);
    if (cached !== undefined && cached.version === version) return cached.value as T;
    const value = compute();
    if (this.#memo.size >= 32) this.#memo.delete(this.#memo.keys().next().value ?? '');
    this.#memo.set(key, { version, value });
    return value;
  }

  #facts(): Database.Database {
    return this.#mirror.database;
  }

  /**
   * The ledger file, copied as of now. Undefined when the file does not exist yet (the gateway creates it on its
   * first request).
   */
  static open(path: string, busyTimeoutMs = 5_000): LedgerReader | undefined {
    if (!existsSync(path)) return undefined;
    const mirror = new SqliteFileMirror(path, busyTimeoutMs);
    mirror.catchUp();
    return new LedgerReader(mirror);
  }

  /** Any ledger store, empty until the first `refresh()`; `ownsStore` closes the store with the reader. */
  static over(store: LedgerStore, options: { ownsStore?: boolean } = {}): LedgerReader {
    return new LedgerReader(new StoreMirror(store, options));
  }

  /** Catches the copy up with the ledger: call before a view, so it covers what was written until now. */
  refresh(): Promise<void> {
    return this.#mirror.sync();
  }

  close(): Promise<void> {
    return this.#mirror.close();
  }

  /** Usage summed per group; `byDay` splits by day at `utcOffsetMinutes` east of UTC. */
  usageGroups(filter: LedgerFilter = {}, options: { byDay?: boolean; utcOffsetMinutes?: number } = {}): UsageGroup[] {
    return this.#remember(`usage ${JSON.stringify([filter, options])}`, () => this.#usageGroups(filter, options));
  }

  #usageGroups(filter: LedgerFilter, options: { byDay?: boolean; utcOffsetMinutes?: number }): UsageGroup[] {
    const where = whereFor(filter);
    const bucket = options.byDay
      ? `strftime('%Y-%m-%d', (started_at + @offsetMs) / 1000, 'unixepoch')`
      : `'all'`;
    const rows = this.#facts()
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
         FROM facts WHERE ${and(where, '')}
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
    return this.#remember(`sessions ${JSON.stringify(query)}`, () => this.#sessionStats(query));
  }

  #sessionStats(query: SessionQuery): SessionStats[] {
    const where = whereFor(query);
    const rows = this.#facts()
      .prepare(
        `WITH scoped AS (SELECT * FROM facts WHERE ${and(where, 'session_id IS NOT NULL')}),
         -- Imported Hermes rows are session totals, not one prompt: they never stand for the context fill.
         measured AS (SELECT * FROM scoped WHERE status < 400 AND input_tokens IS NOT NULL AND endpoint <> '${hermesImportEndpoint}'),
         -- SQLite takes the bare columns of a MAX() aggregate from the row holding the maximum: the latest request.
         latest AS (
           SELECT session_id, MAX(started_at) AS latest_at, input_tokens AS latestInputTokens,
                  served_provider AS latestProvider, served_model AS latestModel, usage_estimated AS latestEstimated
           FROM measured GROUP BY session_id
         ),
         shrinks AS (
           SELECT session_id,
                  SUM(previous >= ${compactionMinimumPrompt} AND input_tokens < previous * ${compactionShrink}) AS compactions
           FROM (SELECT session_id, input_tokens,
                        LAG(input_tokens) OVER (PARTITION BY session_id ORDER BY started_at, request_id) AS previous
                 FROM measured)
           GROUP BY session_id
         ),
         totals AS (
           SELECT session_id AS sessionId,
                  COUNT(*) AS requests,
                  COALESCE(SUM(status >= 400), 0) AS failedRequests,
                  COALESCE(SUM(attempt_count - COALESCE(tool_recoveries, 0) > 1), 0) AS failovers,
                  COALESCE(SUM(attempt_count - COALESCE(tool_recoveries, 0) > 1 AND status < 400), 0) AS recoveredFailovers,
                  COALESCE(SUM(tool_recoveries), 0) AS toolRecoveries,
                  COALESCE(SUM(recovery_overhead_tokens), 0) AS recoveryOverheadTokens,
                  COALESCE(SUM(input_tokens), 0) AS inputTokens,
                  COALESCE(SUM(output_tokens), 0) AS outputTokens,
                  COALESCE(SUM(cache_read_tokens), 0) AS cacheReadTokens,
                  COALESCE(SUM(cost_usd), 0) AS costUsd,
                  COALESCE(SUM(cost_usd IS NULL), 0) AS unpricedRequests,
                  MIN(started_at) AS firstStartedAt,
                  MAX(started_at) AS lastStartedAt,
                  COALESCE(SUM(sent_schema_tokens), 0) AS sentSchemaTokens,
                  COALESCE(SUM(cache_write_tokens), 0) AS cacheWriteTokens,
                  COALESCE(SUM(${surfaceChangeSql}), 0) AS surfaceChanges
           FROM scoped GROUP BY session_id
         ),
         -- Labels come from the whole session (its first prompt may lie before the filter's window); bare columns
         -- of MIN()/MAX() come from the row holding the extreme: the earliest prompt, the latest title and agent.
         prompts AS (SELECT session_id, MIN(started_at), session_prompt FROM facts
                     WHERE session_prompt IS NOT NULL AND session_id IN (SELECT sessionId FROM totals) GROUP BY session_id),
         titles AS (SELECT session_id, MAX(started_at), session_title FROM facts
                    WHERE session_title IS NOT NULL AND session_id IN (SELECT sessionId FROM totals) GROUP BY session_id),
         agents AS (SELECT session_id, MAX(started_at), session_agent FROM facts
                    WHERE session_agent IS NOT NULL AND session_id IN (SELECT sessionId FROM totals) GROUP BY session_id)
         SELECT totals.*, latest.latestInputTokens, latest.latestProvider, latest.latestModel,
                COALESCE(latest.latestEstimated, 0) AS latestEstimated, COALESCE(shrinks.compactions, 0) AS compactions,
                agents.session_agent AS agent, prompts.session_prompt AS firstPrompt, titles.session_title AS title
         FROM totals
         LEFT JOIN latest ON latest.session_id = totals.sessionId
         LEFT JOIN shrinks ON shrinks.session_id = totals.sessionId
         LEFT JOIN prompts ON prompts.session_id = totals.sessionId
         LEFT JOIN titles ON titles.session_id = totals.sessionId
         LEFT JOIN agents ON agents.session_id = totals.sessionId`,
      )
      .all(where.parameters) as (Omit<SessionStats, 'latestEstimated'> & { latestEstimated: number })[];
    return rows.map((row) => ({ ...row, latestEstimated: row.latestEstimated === 1 }));
  }

  /** The requests of one session, oldest first, at most `limit` from `offset`. */
  sessionTimeline(sessionId: string, options: { limit?: number; offset?: number } = {}): TimelineRow[] {
    return this.#facts()
      .prepare(
        `SELECT request_id AS requestId, started_at AS startedAt, status, requested_model AS requestedModel,
                served_provider AS servedProvider, served_model AS servedModel, input_tokens AS inputTokens,
                output_tokens AS outputTokens, cache_read_tokens AS cacheReadTokens,
                cache_write_tokens AS cacheWriteTokens, cost_usd AS costUsd, attempt_count AS attempts,
                total_ms AS totalMs,
                tool_outcome AS toolOutcome,
                full_schema_tokens AS fullSchemaTokens,
                sent_schema_tokens AS sentSchemaTokens,
                recovery_overhead_tokens AS recoveryOverheadTokens,
                model_policy AS modelPolicy,
                model_reason AS modelReason
         FROM facts WHERE session_id = @session
         ORDER BY started_at, request_id LIMIT @limit OFFSET @offset`,
      )
      .all({ session: sessionId, limit: Math.min(Math.max(options.limit ?? 500, 1), 5_000), offset: Math.max(options.offset ?? 0, 0) }) as TimelineRow[];
  }

  /** Cache reads and writes per (session, served deployment), for sessions' prompt-cache savings. */
  sessionCacheUsage(query: SessionQuery = {}): SessionCacheRow[] {
    return this.#remember(`sessionCache ${JSON.stringify(query)}`, () => {
      const where = whereFor(query);
      return this.#facts()
        .prepare(
          `SELECT session_id AS sessionId, served_provider AS provider, served_model AS model, COUNT(*) AS requests,
                  COALESCE(SUM(cache_read_tokens), 0) AS cacheReadTokens, COALESCE(SUM(cache_write_tokens), 0) AS cacheWriteTokens
           FROM facts
           WHERE ${and(where, 'session_id IS NOT NULL AND served_provider IS NOT NULL AND served_model IS NOT NULL')}
             AND (COALESCE(cache_read_tokens, 0) > 0 OR COALESCE(cache_write_tokens, 0) > 0)
           GROUP BY 1, 2, 3`,
        )
        .all(where.parameters) as SessionCacheRow[];
    });
  }

  /** The requests that changed a session's tool surface, oldest first. */
  surfaceChanges(query: SessionQuery = {}): SurfaceChangeRow[] {
    return this.#remember(`surfaceChanges ${JSON.stringify(query)}`, () => {
      const where = whereFor(query);
      return this.#facts()
        .prepare(
          `SELECT request_id AS requestId, session_id AS sessionId, started_at AS startedAt,
                  served_provider AS servedProvider, served_model AS servedModel,
                  anticipated_toolsets AS anticipatedToolsets, COALESCE(tool_recoveries, 0) AS recoveries,
                  input_tokens AS inputTokens, cache_read_tokens AS cacheReadTokens, cache_write_tokens AS cacheWriteTokens
           FROM facts WHERE ${and(where, `session_id IS NOT NULL AND ${surfaceChangeSql}`)}
           ORDER BY started_at, request_id`,
        )
        .all(where.parameters) as SurfaceChangeRow[];
    });
  }

  toolRouting(filter: LedgerFilter = {}): ToolRoutingRow[] {
    return this.#remember(`toolRouting ${JSON.stringify([filter])}`, () => this.#toolRouting(filter));
  }

  #toolRouting(filter: LedgerFilter): ToolRoutingRow[] {
    const where = whereFor(filter);
    return this.#facts()
      .prepare(
        `SELECT tool_mode AS mode,
                tool_outcome AS outcome,
                COUNT(*) AS requests,
                COALESCE(SUM(full_schema_tokens), 0) AS fullSchemaTokens,
                COALESCE(SUM(sent_schema_tokens), 0) AS sentSchemaTokens,
                COALESCE(SUM(tool_recoveries), 0) AS recoveries
         FROM facts WHERE ${and(where, 'tool_mode IS NOT NULL')}
         GROUP BY 1, 2 ORDER BY 3 DESC`,
      )
      .all(where.parameters) as ToolRoutingRow[];
  }

  modelRoutes(filter: LedgerFilter = {}, limit = 50): ModelRouteRow[] {
    return this.#remember(`modelRoutes ${JSON.stringify([filter, limit])}`, () => this.#modelRoutes(filter, limit));
  }

  #modelRoutes(filter: LedgerFilter, limit: number): ModelRouteRow[] {
    const where = whereFor(filter);
    return this.#facts()
      .prepare(
        `SELECT COALESCE(model_policy, '(none)') AS policy,
                requested_model AS requestedModel, served_model AS servedModel,
                COUNT(*) AS requests,
                COALESCE(SUM(attempt_count - COALESCE(tool_recoveries, 0) > 1), 0) AS failovers,
                COALESCE(SUM(status >= 400), 0) AS failed
         FROM facts WHERE ${and(where, '')}
         GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT @limit`,
      )
      .all({ ...where.parameters, limit }) as ModelRouteRow[];
  }

  /** Failed upstream attempts by deployment and error class: what opened breakers and caused failovers. */
  attemptErrors(filter: LedgerFilter = {}, limit = 50): AttemptErrorRow[] {
    return this.#remember(`attemptErrors ${JSON.stringify([filter, limit])}`, () => this.#attemptErrors(filter, limit));
  }

  #attemptErrors(filter: LedgerFilter, limit: number): AttemptErrorRow[] {
    const where = whereFor(filter, 'facts.');
    return this.#facts()
      .prepare(
        `SELECT attempt_errors.provider AS provider, attempt_errors.model AS model,
                attempt_errors.error_class AS errorClass, COUNT(*) AS attempts
         FROM attempt_errors JOIN facts ON facts.request_id = attempt_errors.request_id
         WHERE ${and(where, '')}
         GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT @limit`,
      )
      .all({ ...where.parameters, limit }) as AttemptErrorRow[];
  }

  /** Traffic, failures and latency per served deployment. */
  modelStats(filter: LedgerFilter = {}): ModelStatsRow[] {
    return this.#remember(`modelStats ${JSON.stringify([filter])}`, () => this.#modelStats(filter));
  }

  #modelStats(filter: LedgerFilter): ModelStatsRow[] {
    const where = whereFor(filter);
    return this.#facts()
      .prepare(
        `SELECT served_provider AS provider, COALESCE(served_model, requested_model) AS model,
                COUNT(*) AS requests, COALESCE(SUM(status >= 400), 0) AS failedRequests,
                COALESCE(SUM(attempt_count - COALESCE(tool_recoveries, 0) > 1), 0) AS failovers,
                COALESCE(SUM(input_tokens), 0) AS inputTokens, COALESCE(SUM(output_tokens), 0) AS outputTokens,
                COALESCE(SUM(cost_usd), 0) AS costUsd, COALESCE(SUM(cost_usd IS NULL), 0) AS unpricedRequests,
                AVG(total_ms) AS averageTotalMs, AVG(time_to_first_byte_ms) AS averageTimeToFirstByteMs,
                MAX(started_at) AS lastStartedAt
         FROM facts WHERE ${and(where, '')}
         GROUP BY 1, 2 ORDER BY 3 DESC`,
      )
      .all(where.parameters) as ModelStatsRow[];
  }

  /** The requests that sent the most tool-schema tokens. */
  largestSchemaOverheads(filter: LedgerFilter = {}, limit = 20): SchemaOverheadRow[] {
    const where = whereFor(filter);
    return this.#facts()
      .prepare(
        `SELECT request_id AS requestId, started_at AS startedAt, session_id AS sessionId, served_model AS servedModel,
                COALESCE(full_schema_tokens, 0) AS fullSchemaTokens,
                sent_schema_tokens AS sentSchemaTokens,
                input_tokens AS inputTokens
         FROM facts WHERE ${and(where, 'sent_schema_tokens > 0')}
         ORDER BY sentSchemaTokens DESC, started_at DESC LIMIT @limit`,
      )
      .all({ ...where.parameters, limit }) as SchemaOverheadRow[];
  }
}

/** A prompt at least this large that shrinks below this fraction of itself was rewritten by the client. */
export const compactionMinimumPrompt = 8_000;
export const compactionShrink = 0.6;
