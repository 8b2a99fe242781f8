import type { ApiFormat } from '../../core/api-format.js';
import type { ErrorClass } from '../../core/errors.js';
import type { AttemptRecord, RequestRecord } from '../../core/ledger-record.js';
import type { RouteDecision } from '../../core/route-decision.js';

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

export function toRequestRow(record: RequestRecord): RequestRow {
  return {
    request_id: record.requestId,
    started_at: record.startedAt,
    session_id: record.sessionId ?? null,
    client_key_id: record.clientKeyId ?? null,
    inbound_format: record.inboundFormat,
    endpoint: record.endpoint,
    requested_model: record.requestedModel,
    served_provider: record.servedProvider ?? null,
    served_model: record.servedModel ?? null,
    status: record.status,
    error_class: record.errorClass ?? null,
    streaming: record.streaming ? 1 : 0,
    time_to_first_byte_ms: record.timeToFirstByteMs ?? null,
    total_ms: record.totalMs,
    overhead_ms: record.overheadMs,
    input_tokens: record.usage?.inputTokens ?? null,
    output_tokens: record.usage?.outputTokens ?? null,
    cache_read_tokens: record.usage?.cacheReadTokens ?? null,
    cache_write_tokens: record.usage?.cacheWriteTokens ?? null,
    reasoning_tokens: record.usage?.reasoningTokens ?? null,
    usage_estimated: record.usageEstimated ? 1 : 0,
    cost_usd: record.costUsd,
    attempt_count: record.attempts.length,
    decision_json: JSON.stringify(record.decision),
    content_json: record.content === undefined ? null : JSON.stringify(record.content),
  };
}

export function toAttemptRows(record: RequestRecord): AttemptRow[] {
  return record.attempts.map((attempt, ordinal) => ({
    request_id: record.requestId,
    ordinal,
    provider: attempt.provider,
    model: attempt.model,
    key_id: attempt.keyId,
    started_at: attempt.startedAt,
    duration_ms: attempt.durationMs,
    status: attempt.status,
    error_class: attempt.errorClass ?? null,
    error_message: attempt.errorMessage ?? null,
  }));
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
