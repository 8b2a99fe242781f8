import type { ApiFormat } from '../../core/api-format.js';
import type { ErrorClass } from '../../core/errors.js';
import type { AttemptRecord, RequestRecord } from '../../core/ledger-record.js';
import type { RouteDecision } from '../../core/route-decision.js';
import { encodeLedgerCursor } from '../ledger-cursor.js';
import type { RequestsPage } from '../ledger-store.js';

/** A `requests` row as better-sqlite3 returns it. */
export interface RequestRow {
  request_id: string;
  started_at: number;
  session_id: string | null;
  client_key_id: string | null;
  inbound_format: string;
  endpoint: string;
  requested_model: string;
  served_provider: string | null;
  served_model: string | null;
  status: number;
  error_class: string | null;
  streaming: number;
  time_to_first_byte_ms: number | null;
  total_ms: number;
  overhead_ms: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  reasoning_tokens: number | null;
  usage_estimated: number;
  cost_usd: number | null;
  attempt_count: number;
  decision_json: string;
  content_json: string | null;
}

export interface AttemptRow {
  request_id: string;
  ordinal: number;
  provider: string;
  model: string;
  key_id: string;
  started_at: number;
  duration_ms: number;
  status: number;
  error_class: string | null;
  error_message: string | null;
}

/** Column order of `requestValues`, for the positional INSERT (binding by position is cheaper than by name). */
export const requestColumns = [
  'request_id',
  'started_at',
  'session_id',
  'client_key_id',
  'inbound_format',
  'endpoint',
  'requested_model',
  'served_provider',
  'served_model',
  'status',
  'error_class',
  'streaming',
  'time_to_first_byte_ms',
  'total_ms',
  'overhead_ms',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'usage_estimated',
  'cost_usd',
  'attempt_count',
  'decision_json',
  'content_json',
] as const satisfies readonly (keyof RequestRow)[];

export const attemptColumns = [
  'request_id',
  'ordinal',
  'provider',
  'model',
  'key_id',
  'started_at',
  'duration_ms',
  'status',
  'error_class',
  'error_message',
] as const satisfies readonly (keyof AttemptRow)[];

/** One record's values in `requestColumns` order. */
export function requestValues(record: RequestRecord): (string | number | null)[] {
  const usage = record.usage;
  return [
    record.requestId,
    record.startedAt,
    record.sessionId ?? null,
    record.clientKeyId ?? null,
    record.inboundFormat,
    record.endpoint,
    record.requestedModel,
    record.servedProvider ?? null,
    record.servedModel ?? null,
    record.status,
    record.errorClass ?? null,
    record.streaming ? 1 : 0,
    record.timeToFirstByteMs ?? null,
    record.totalMs,
    record.overheadMs,
    usage?.inputTokens ?? null,
    usage?.outputTokens ?? null,
    usage?.cacheReadTokens ?? null,
    usage?.cacheWriteTokens ?? null,
    usage?.reasoningTokens ?? null,
    record.usageEstimated ? 1 : 0,
    record.costUsd,
    record.attempts.length,
    JSON.stringify(record.decision),
    record.content === undefined ? null : JSON.stringify(record.content),
  ];
}

/** Each attempt's values in `attemptColumns` order. */
export function attemptValues(record: RequestRecord): (string | number | null)[][] {
  return record.attempts.map((attempt, ordinal) => [
    record.requestId,
    ordinal,
    attempt.provider,
    attempt.model,
    attempt.keyId,
    attempt.startedAt,
    attempt.durationMs,
    attempt.status,
    attempt.errorClass ?? null,
    attempt.errorMessage ?? null,
  ]);
}

/** Rebuilds a record; optional fields stored as NULL come back absent, as they went in. */
export function fromRows(row: RequestRow, attempts: readonly AttemptRow[]): RequestRecord {
  const record: RequestRecord = {
    requestId: row.request_id,
    startedAt: row.started_at,
    inboundFormat: row.inbound_format as ApiFormat,
    endpoint: row.endpoint,
    requestedModel: row.requested_model,
    status: row.status,
    streaming: row.streaming === 1,
    totalMs: row.total_ms,
    overheadMs: row.overhead_ms,
    usageEstimated: row.usage_estimated === 1,
    costUsd: row.cost_usd,
    decision: JSON.parse(row.decision_json) as RouteDecision,
    attempts: attempts.map(fromAttemptRow),
  };
  if (row.session_id !== null) record.sessionId = row.session_id;
  if (row.client_key_id !== null) record.clientKeyId = row.client_key_id;
  if (row.served_provider !== null) record.servedProvider = row.served_provider;
  if (row.served_model !== null) record.servedModel = row.served_model;
  if (row.error_class !== null) record.errorClass = row.error_class as ErrorClass;
  if (row.time_to_first_byte_ms !== null) record.timeToFirstByteMs = row.time_to_first_byte_ms;
  if (row.input_tokens !== null) {
    record.usage = {
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens ?? 0,
      cacheReadTokens: row.cache_read_tokens ?? 0,
      cacheWriteTokens: row.cache_write_tokens ?? 0,
      reasoningTokens: row.reasoning_tokens ?? 0,
    };
  }
  if (row.content_json !== null) record.content = JSON.parse(row.content_json) as RequestRecord['content'];
  return record;
}

function fromAttemptRow(row: AttemptRow): AttemptRecord {
  const attempt: AttemptRecord = {
    provider: row.provider,
    model: row.model,
    keyId: row.key_id,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    status: row.status,
  };
  if (row.error_class !== null) attempt.errorClass = row.error_class as ErrorClass;
  if (row.error_message !== null) attempt.errorMessage = row.error_message;
  return attempt;
}

/**
 * A page of `requests(…)` from its rows, newest first and one more than `limit` when a next page exists, and the
 * attempt rows of the page's requests in any request order (each request's in `ordinal` order). Both SQL stores
 * page this way; only the query that fetches the attempts differs.
 */
export function requestsPageFromRows(rows: readonly RequestRow[], limit: number, attemptRows: Iterable<AttemptRow>): RequestsPage {
  const attemptsByRequest = new Map<string, AttemptRow[]>();
  for (const attempt of attemptRows) {
    const list = attemptsByRequest.get(attempt.request_id) ?? [];
    list.push(attempt);
    attemptsByRequest.set(attempt.request_id, list);
  }
  const items = rows.slice(0, limit).map((row) => fromRows(row, attemptsByRequest.get(row.request_id) ?? []));
  const last = items.at(-1);
  return rows.length > limit && last ? { items, nextCursor: encodeLedgerCursor(last) } : { items };
}
