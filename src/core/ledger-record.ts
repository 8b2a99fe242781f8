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
