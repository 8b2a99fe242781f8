import type { AttemptRecord, RequestRecord } from '../core/ledger-record.js';

/** An upstream attempt that failed, named the way the insight views group failures. */
export interface FailedAttempt {
  provider: string;
  model: string;
  /** The attempt's error class, else `status <code>`. */
  errorClass: string;
}

/**
 * One request reduced to what the insight views aggregate: usage, cost, timing, the routing decision's fields
 * pulled out of the decision once, and its failed attempts. Far narrower than the stored row (no decision
 * JSON, no content), so a reader can keep a copy of every request.
 */
export interface LedgerFact {
  requestId: string;
  endpoint: string;
  startedAt: number;
  sessionId: string | null;
  requestedModel: string;
  servedProvider: string | null;
  servedModel: string | null;
  status: number;
  attemptCount: number;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  reasoningTokens: number | null;
  costUsd: number | null;
  usageEstimated: boolean;
  totalMs: number;
  timeToFirstByteMs: number | null;
  toolMode: string | null;
  toolOutcome: string | null;
  fullSchemaTokens: number | null;
  sentSchemaTokens: number | null;
  toolRecoveries: number | null;
  /** Tokens billed for upstream answers a request_toolset recovery replaced (the client's usage leaves them out). */
  recoveryOverheadTokens: number | null;
  modelPolicy: string | null;
  modelReason: string | null;
  /** Toolsets a later user turn added before the call, comma-separated: this request changed the tool surface. */
  anticipatedToolsets: string | null;
  /** The session's labels (`SessionDecision`), on the requests that carry them. */
  sessionAgent: string | null;
  sessionPrompt: string | null;
  sessionTitle: string | null;
  /** In the order they were made. */
  failedAttempts: FailedAttempt[];
}

export interface LedgerFactsQuery {
  /** The `cursor` of the previous page; from the first request when omitted. */
  cursor?: string;
  /** Page size, 1..10,000; 5,000 when omitted. */
  limit?: number;
}

export interface LedgerFactsPage {
  facts: LedgerFact[];
  /** Pass back for the next page, and, once `complete`, later for the rows written since. */
  cursor: string;
  /** No more rows now; calling again with `cursor` returns only what was written meanwhile. */
  complete: boolean;
}

export const defaultFactsPageSize = 5_000;
export const maximumFactsPageSize = 10_000;

/** What the SQL stores count as a failed attempt: an error status, no response at all, or an error class. */
export function isFailedAttempt(attempt: AttemptRecord): boolean {
  return attempt.status >= 400 || attempt.status === 0 || attempt.errorClass !== undefined;
}

/** The fact of one record, in memory; the SQL stores compute the same in SQL. */
export function factOf(record: RequestRecord): LedgerFact {
  const usage = record.usage;
  const tools = record.decision.tools;
  const models = record.decision.models;
  return {
    requestId: record.requestId,
    endpoint: record.endpoint,
    startedAt: record.startedAt,
    sessionId: record.sessionId ?? null,
    requestedModel: record.requestedModel,
    servedProvider: record.servedProvider ?? null,
    servedModel: record.servedModel ?? null,
    status: record.status,
    attemptCount: record.attempts.length,
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    cacheReadTokens: usage?.cacheReadTokens ?? null,
    cacheWriteTokens: usage?.cacheWriteTokens ?? null,
    reasoningTokens: usage?.reasoningTokens ?? null,
    costUsd: record.costUsd,
    usageEstimated: record.usageEstimated,
    totalMs: record.totalMs,
    timeToFirstByteMs: record.timeToFirstByteMs ?? null,
    toolMode: tools?.mode ?? null,
    toolOutcome: tools?.outcome ?? null,
    fullSchemaTokens: tools?.fullSchemaTokens ?? null,
    sentSchemaTokens: tools?.sentSchemaTokens ?? null,
    toolRecoveries: tools?.recoveries ?? null,
    recoveryOverheadTokens: tools?.recoveryOverheadTokens ?? null,
    modelPolicy: models?.policy ?? null,
    modelReason: models?.reason ?? null,
    anticipatedToolsets: tools?.anticipatedToolsets && tools.anticipatedToolsets.length > 0 ? tools.anticipatedToolsets.join(',') : null,
    sessionAgent: record.decision.session?.agent ?? null,
    sessionPrompt: record.decision.session?.firstPrompt ?? null,
    sessionTitle: record.decision.session?.title ?? null,
    failedAttempts: record.attempts
      .filter(isFailedAttempt)
      .map((attempt) => ({ provider: attempt.provider, model: attempt.model, errorClass: attempt.errorClass ?? `status ${attempt.status}` })),
  };
}
