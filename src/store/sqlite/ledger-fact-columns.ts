import type { FailedAttempt, LedgerFact } from '../ledger-facts.js';

/**
 * The columns of a fact (`LedgerFact`) and how SQLite computes each from a `requests` row: one list, used by the
 * SQLite store's facts feed and by the insight reader's in-SQLite copy of a ledger file, so both extract the
 * decision fields the same way.
 */
export const factColumns = [
  ['request_id', 'request_id', 'requestId'],
  ['endpoint', 'endpoint', 'endpoint'],
  ['started_at', 'started_at', 'startedAt'],
  ['session_id', 'session_id', 'sessionId'],
  ['requested_model', 'requested_model', 'requestedModel'],
  ['served_provider', 'served_provider', 'servedProvider'],
  ['served_model', 'served_model', 'servedModel'],
  ['status', 'status', 'status'],
  ['attempt_count', 'attempt_count', 'attemptCount'],
  ['input_tokens', 'input_tokens', 'inputTokens'],
  ['output_tokens', 'output_tokens', 'outputTokens'],
  ['cache_read_tokens', 'cache_read_tokens', 'cacheReadTokens'],
  ['cache_write_tokens', 'cache_write_tokens', 'cacheWriteTokens'],
  ['reasoning_tokens', 'reasoning_tokens', 'reasoningTokens'],
  ['cost_usd', 'cost_usd', 'costUsd'],
  ['usage_estimated', 'usage_estimated', 'usageEstimated'],
  ['total_ms', 'total_ms', 'totalMs'],
  ['time_to_first_byte_ms', 'time_to_first_byte_ms', 'timeToFirstByteMs'],
  ['tool_mode', `json_extract(decision_json, '$.tools.mode')`, 'toolMode'],
  ['tool_outcome', `json_extract(decision_json, '$.tools.outcome')`, 'toolOutcome'],
  ['full_schema_tokens', `json_extract(decision_json, '$.tools.fullSchemaTokens')`, 'fullSchemaTokens'],
  ['sent_schema_tokens', `json_extract(decision_json, '$.tools.sentSchemaTokens')`, 'sentSchemaTokens'],
  ['tool_recoveries', `json_extract(decision_json, '$.tools.recoveries')`, 'toolRecoveries'],
  ['recovery_overhead_tokens', `json_extract(decision_json, '$.tools.recoveryOverheadTokens')`, 'recoveryOverheadTokens'],
  ['model_policy', `json_extract(decision_json, '$.models.policy')`, 'modelPolicy'],
  ['model_reason', `json_extract(decision_json, '$.models.reason')`, 'modelReason'],
  [
    'anticipated_toolsets',
    `(SELECT group_concat(value, ',') FROM json_each(decision_json, '$.tools.anticipatedToolsets'))`,
    'anticipatedToolsets',
  ],
  ['session_agent', `json_extract(decision_json, '$.session.agent')`, 'sessionAgent'],
  ['session_prompt', `json_extract(decision_json, '$.session.firstPrompt')`, 'sessionPrompt'],
  ['session_title', `json_extract(decision_json, '$.session.title')`, 'sessionTitle'],
] as const satisfies readonly (readonly [string, string, Exclude<keyof LedgerFact, 'failedAttempts'>])[];

/** `SELECT` list of the fact columns from `requests`, each named by its column. */
export const factSelect = factColumns.map(([column, expression]) => (column === expression ? column : `${expression} AS ${column}`)).join(', ');

/** A request that failed over: attempts beyond the first that were not request_toolset re-issues (see failedOver). */
export const failoverCondition = `attempt_count - COALESCE(json_extract(decision_json, '$.tools.recoveries'), 0) > 1`;

/** Attempts that failed (error status, no response, or an error class), and the name their failure is grouped by. */
export const failedAttemptCondition = '(attempts.status >= 400 OR attempts.status = 0 OR attempts.error_class IS NOT NULL)';
export const failedAttemptClass = `COALESCE(attempts.error_class, 'status ' || attempts.status)`;

/** A row selected with `factSelect` as a fact. */
export function factFromRow(row: Record<string, unknown>, failedAttempts: FailedAttempt[]): LedgerFact {
  const fact: Record<string, unknown> = {};
  for (const [column, , name] of factColumns) fact[name] = row[column] ?? null;
  fact.usageEstimated = row.usage_estimated === 1;
  fact.failedAttempts = failedAttempts;
  return fact as unknown as LedgerFact;
}
