import type { RequestRecord } from '../core/ledger-record.js';
import type { ClientKeyRow, LedgerFilter, LedgerTotals, ModelRow, SessionRow } from './ledger-store.js';

export function emptyTotals(): LedgerTotals {
  return {
    requests: 0,
    failedRequests: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
    unpricedRequests: 0,
    estimatedRequests: 0,
  };
}

/** Adds one request to running totals: the in-memory twin of the SQL aggregates, kept in one place. */
export function addToTotals(totals: LedgerTotals, record: RequestRecord): void {
  totals.requests += 1;
  if (record.status >= 400) totals.failedRequests += 1;
  totals.inputTokens += record.usage?.inputTokens ?? 0;
  totals.outputTokens += record.usage?.outputTokens ?? 0;
  totals.cacheReadTokens += record.usage?.cacheReadTokens ?? 0;
  totals.cacheWriteTokens += record.usage?.cacheWriteTokens ?? 0;
  totals.reasoningTokens += record.usage?.reasoningTokens ?? 0;
  if (record.costUsd === null) totals.unpricedRequests += 1;
  else totals.costUsd += record.costUsd;
  if (record.usageEstimated) totals.estimatedRequests += 1;
}

export function matchesFilter(record: RequestRecord, filter: LedgerFilter): boolean {
  if (filter.since !== undefined && record.startedAt < filter.since) return false;
  if (filter.until !== undefined && record.startedAt >= filter.until) return false;
  if (filter.session !== undefined && record.sessionId !== filter.session) return false;
  if (filter.model !== undefined && record.servedModel !== filter.model && record.requestedModel !== filter.model) {
    return false;
  }
  return true;
}

/** Day label for a request: the date at `utcOffsetMinutes` east of UTC. */
export function dayOf(startedAt: number, utcOffsetMinutes: number): string {
  return new Date(startedAt + utcOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** Most expensive first; ties by request count, then by name so the order is stable across stores. */
export function compareModelRows(left: ModelRow, right: ModelRow): number {
  return (
    right.costUsd - left.costUsd ||
    right.requests - left.requests ||
    compareText(left.model, right.model) ||
    compareText(left.provider ?? '', right.provider ?? '')
  );
}

/** Most recently active first; ties by id (no session last) so every store returns the same order. */
export function compareSessionRows(left: SessionRow, right: SessionRow): number {
  if (right.lastStartedAt !== left.lastStartedAt) return right.lastStartedAt - left.lastStartedAt;
  if (left.sessionId === right.sessionId) return 0;
  if (left.sessionId === null) return 1;
  if (right.sessionId === null) return -1;
  return left.sessionId < right.sessionId ? -1 : 1;
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** By key id, bytewise, so every store returns the same order. */
export function compareClientKeyRows(left: ClientKeyRow, right: ClientKeyRow): number {
  return compareText(left.clientKeyId, right.clientKeyId);
}
