import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** One Hermes session's usage for one model (from `session_model_usage`, or the `sessions` totals without it). */
export interface HermesUsageRow {
  sessionId: string;
  source: string | null;
  model: string;
  billingProvider: string | null;
  billingBaseUrl: string | null;
  startedAt: number;
  endedAt: number | null;
  apiCalls: number;
  messageCount: number | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** Hermes's actual cost when it has one, else its estimate; null when neither is above zero. */
  costUsd: number | null;
}

/** What Hermes records about its own compression of a session: the nudge stays silent while this is healthy. */
export interface HermesCompressionHealth {
  sessionId: string;
  failureCooldownUntil: number | null;
  failureError: string | null;
  fallbackStreak: number;
  healthy: boolean;
}

/** `$HERMES_HOME`, else the configured home, else `~/.hermes`. */
export function hermesHome(options: { flag?: string | undefined; configured?: string | undefined; env: NodeJS.ProcessEnv }): string {
  return options.flag ?? options.env.HERMES_HOME ?? options.configured ?? join(options.env.HOME ?? homedir(), '.hermes');
}

/**
 * Opens Hermes's `state.db` strictly read-only: the read-only open flag (SQLite refuses every write, and the
 * file is never created), `PRAGMA query_only`, and a busy timeout for a running Hermes holding a lock. Not
 * `immutable=1`: that would skip the WAL and hide the rows a running Hermes has not checkpointed yet.
 */
export function openHermesState(path: string, busyTimeoutMs = 5_000): Database.Database | undefined {
  if (!existsSync(path)) return undefined;
  const database = new Database(path, { readonly: true, fileMustExist: true });
  database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  database.pragma('query_only = ON');
  return database;
}

function columnsOf(database: Database.Database, table: string): Set<string> {
  const rows = database.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
  return new Set(rows.map((row) => row.name));
}

/** A column when this schema version has it, else NULL: Hermes adds columns often, and old files lack them. */
function column(available: Set<string>, name: string, alias: string, table: string): string {
  return available.has(name) ? `${table}.${name} AS ${alias}` : `NULL AS ${alias}`;
}

const toMs = (seconds: number | null): number | null => (seconds === null ? null : Math.round(seconds * 1000));
const count = (value: number | null): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

interface RawRow {
  sessionId: string;
  source: string | null;
  model: string | null;
  billingProvider: string | null;
  billingBaseUrl: string | null;
  startedAt: number | null;
  endedAt: number | null;
  apiCalls: number | null;
  messageCount: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  reasoningTokens: number | null;
  actualCost: number | null;
  estimatedCost: number | null;
}

/**
 * Usage per (session, model) since `sinceMs`. Tolerates schema drift: missing columns read as NULL, a missing
 * `session_model_usage` table falls back to the per-session totals, a missing `sessions` table yields nothing.
 * A session that `session_model_usage` has no rows for (recorded before that table existed, or by a Hermes
 * version that fills only `sessions`) is read from its own totals too, so it is not lost.
 */
export function readHermesUsage(database: Database.Database, sinceMs = 0): HermesUsageRow[] {
  const sessions = columnsOf(database, 'sessions');
  if (!sessions.has('id')) return [];
  const perModel = columnsOf(database, 'session_model_usage');
  const hasPerModel = perModel.has('session_id') && perModel.has('model');
  const since = sessions.has('started_at') ? 'sessions.started_at >= @since' : '1 = 1';
  const select = (usageTable: 'usage' | 'sessions', from: string, where: string): RawRow[] => {
    const usageColumns = usageTable === 'usage' ? perModel : sessions;
    const pick = (name: string, alias: string) => column(usageColumns, name, alias, usageTable);
    const session = (name: string, alias: string) => column(sessions, name, alias, 'sessions');
    return database
      .prepare(
        `SELECT sessions.id AS sessionId, ${session('source', 'source')}, ${pick('model', 'model')},
                ${pick('billing_provider', 'billingProvider')}, ${pick('billing_base_url', 'billingBaseUrl')},
                ${session('started_at', 'startedAt')}, ${session('ended_at', 'endedAt')},
                ${pick('api_call_count', 'apiCalls')}, ${session('message_count', 'messageCount')},
                ${pick('input_tokens', 'inputTokens')}, ${pick('output_tokens', 'outputTokens')},
                ${pick('cache_read_tokens', 'cacheReadTokens')}, ${pick('cache_write_tokens', 'cacheWriteTokens')},
                ${pick('reasoning_tokens', 'reasoningTokens')},
                ${pick('actual_cost_usd', 'actualCost')}, ${pick('estimated_cost_usd', 'estimatedCost')}
         FROM ${from} WHERE ${where}`,
      )
      .all({ since: sinceMs / 1000 }) as RawRow[];
  };
  const rows = hasPerModel
    ? [
        ...select('usage', 'sessions JOIN session_model_usage AS usage ON usage.session_id = sessions.id', since),
        ...select('sessions', 'sessions', `${since} AND NOT EXISTS (SELECT 1 FROM session_model_usage AS usage WHERE usage.session_id = sessions.id)`),
      ]
    : select('sessions', 'sessions', since);
  return rows.map((row) => ({
    sessionId: row.sessionId,
    source: row.source,
    model: row.model ?? '(unknown model)',
    billingProvider: row.billingProvider || null,
    billingBaseUrl: row.billingBaseUrl || null,
    startedAt: toMs(row.startedAt) ?? 0,
    endedAt: toMs(row.endedAt),
    apiCalls: count(row.apiCalls),
    messageCount: row.messageCount,
    inputTokens: count(row.inputTokens),
    outputTokens: count(row.outputTokens),
    cacheReadTokens: count(row.cacheReadTokens),
    cacheWriteTokens: count(row.cacheWriteTokens),
    reasoningTokens: count(row.reasoningTokens),
    costUsd: count(row.actualCost) > 0 ? count(row.actualCost) : count(row.estimatedCost) > 0 ? count(row.estimatedCost) : null,
  }));
}

/** Hermes's compression state for one session; undefined when the file does not record it. */
export function readCompressionHealth(database: Database.Database, sessionId: string, nowMs = Date.now()): HermesCompressionHealth | undefined {
  const sessions = columnsOf(database, 'sessions');
  if (!sessions.has('compression_fallback_streak') && !sessions.has('compression_failure_cooldown_until')) return undefined;
  const row = database
    .prepare(
      `SELECT ${column(sessions, 'compression_failure_cooldown_until', 'cooldown', 'sessions')},
              ${column(sessions, 'compression_failure_error', 'error', 'sessions')},
              ${column(sessions, 'compression_fallback_streak', 'streak', 'sessions')}
       FROM sessions WHERE id = ?`,
    )
    .get(sessionId) as { cooldown: number | null; error: string | null; streak: number | null } | undefined;
  if (row === undefined) return undefined;
  const cooldownUntil = toMs(row.cooldown);
  const streak = count(row.streak);
  return {
    sessionId,
    failureCooldownUntil: cooldownUntil,
    failureError: row.error,
    fallbackStreak: streak,
    healthy: (cooldownUntil === null || cooldownUntil <= nowMs) && streak === 0 && !row.error,
  };
}

/**
 * Whether Hermes reached this base URL through the gateway (then the gateway's own rows already hold the
 * usage, and importing it would count it twice). Compared by host and port; loopback names are equivalent.
 */
export function viaGateway(baseUrl: string | null, gatewayUrls: readonly string[]): boolean {
  if (baseUrl === null) return false;
  const normalise = (text: string): string | undefined => {
    try {
      const url = new URL(text);
      const host = ['localhost', '127.0.0.1', '[::1]', '::1', '0.0.0.0'].includes(url.hostname) ? 'loopback' : url.hostname;
      return `${host}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
    } catch {
      return undefined;
    }
  };
  const target = normalise(baseUrl);
  return target !== undefined && gatewayUrls.some((url) => normalise(url) === target);
}

/**
 * For the context nudge: whether Hermes's own compression is healthy right now, read from its most recently
 * started open session (Hermes sends no session id to a custom endpoint, so gateway sessions cannot be matched
 * one to one). Undefined when state.db is missing or records no compression fields. Re-read at most every
 * `cacheMs`; the file is opened read-only each time and closed again.
 */
export function hermesCompressionProbe(statePath: string, cacheMs = 30_000, now: () => number = Date.now): () => boolean | undefined {
  let cached: { at: number; healthy: boolean | undefined } | undefined;
  return () => {
    const time = now();
    if (cached !== undefined && time - cached.at < cacheMs) return cached.healthy;
    let healthy: boolean | undefined;
    try {
      const database = openHermesState(statePath);
      if (database !== undefined) {
        try {
          const columns = columnsOf(database, 'sessions');
          const open = columns.has('ended_at') ? 'WHERE ended_at IS NULL' : '';
          const order = columns.has('started_at') ? 'ORDER BY started_at DESC' : '';
          const latest = columns.has('id')
            ? (database.prepare(`SELECT id FROM sessions ${open} ${order} LIMIT 1`).get() as { id: string } | undefined)
            : undefined;
          healthy = latest === undefined ? undefined : readCompressionHealth(database, latest.id, time)?.healthy;
        } finally {
          database.close();
        }
      }
    } catch {
      healthy = undefined;
    }
    cached = { at: time, healthy };
    return healthy;
  };
}
