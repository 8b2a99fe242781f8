import type { ApiFormat } from './api-format.js';
import type { ErrorClass } from './errors.js';
import type { RouteDecision } from './route-decision.js';
import type { Usage } from './usage.js';

/** One upstream call made while serving a request. Never holds a key, only its id. */
export interface AttemptRecord {
  provider: string;
  model: string;
  keyId: string;
  startedAt: number;
  durationMs: number;
  /** HTTP status from upstream, or 0 when no response arrived. */
  status: number;
  errorClass?: ErrorClass;
  errorMessage?: string;
}

/** One client request, as the ledger stores it. */
export interface RequestRecord {
  requestId: string;
  startedAt: number;
  sessionId?: string;
  clientKeyId?: string;
  inboundFormat: ApiFormat;
  endpoint: string;
  requestedModel: string;
  servedProvider?: string;
  servedModel?: string;
  status: number;
  errorClass?: ErrorClass;
  streaming: boolean;
  timeToFirstByteMs?: number;
  totalMs: number;
  overheadMs: number;
  usage?: Usage;
  usageEstimated: boolean;
  /** null when the served model has no known price: unpriced, never $0. */
  costUsd: number | null;
  decision: RouteDecision;
  attempts: AttemptRecord[];
  /** Only when `ledger.store_content` is on. */
  content?: { request: unknown; response?: unknown };
}

/** A request's row as it starts: nothing served, nothing spent, every duration still 0. */
export function startRequestRecord(
  start: Pick<RequestRecord, 'requestId' | 'startedAt' | 'inboundFormat' | 'endpoint' | 'requestedModel'>,
): RequestRecord {
  return { ...start, status: 0, streaming: false, totalMs: 0, overheadMs: 0, usageEstimated: false, costUsd: null, decision: {}, attempts: [] };
}

/**
 * Whether a request failed over: an upstream attempt beyond the first that was not a `request_toolset` re-issue.
 * A recovery re-issue is a deliberate second call on a grown surface, not a provider failing; counting it as a
 * failover made `report routing` and `report models` blame providers for the tool router's recoveries.
 */
export function failedOver(record: Pick<RequestRecord, 'attempts' | 'decision'>): boolean {
  return record.attempts.length - (record.decision.tools?.recoveries ?? 0) > 1;
}
