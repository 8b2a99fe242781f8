import type { InsightModels } from './insight-models.js';
import type { LedgerReader, SessionQuery, SurfaceChangeRow } from './ledger-reader.js';

export const cacheCostMethods = {
  saved:
    "cache-read tokens × (input price − cache-read price) of the served model, minus the premium paid for cache writes (cache-write tokens × (cache-write price − input price))",
  surfaceChange:
    'the prompt a request that changed the tool surface sent uncached (its cache writes at the cache-write price, the rest of what it did not read from the cache at the input price): tools come first in the prompt, so a new surface is written again from the first byte',
} as const;

/** What the provider's prompt cache saved on some reads and writes of one deployment; null when it has no price. */
export function promptCacheSaving(models: InsightModels, provider: string, model: string, reads: number, writes: number): number | null {
  const readsUncached = models.price(provider, model, { inputTokens: reads });
  const readsCached = models.price(provider, model, { inputTokens: reads, cacheReadTokens: reads });
  const writesUncached = models.price(provider, model, { inputTokens: writes });
  const writesCached = models.price(provider, model, { inputTokens: writes, cacheWriteTokens: writes });
  if (readsUncached === null || readsCached === null || writesUncached === null || writesCached === null) return null;
  return readsUncached - readsCached - (writesCached - writesUncached);
}

export interface SessionCacheSaving {
  /** Net USD the prompt cache saved the session (negative when writes cost more than reads saved). */
  savedUsd: number;
  /** Requests with cache activity on a deployment without a price: left out, never counted as $0. */
  unpricedRequests: number;
}

/** Per session, what the provider prompt cache saved, priced like `report savings` prices it. */
export function sessionCacheSavings(reader: LedgerReader, models: InsightModels, query: SessionQuery = {}): Map<string, SessionCacheSaving> {
  const savings = new Map<string, SessionCacheSaving>();
  for (const row of reader.sessionCacheUsage(query)) {
    const entry = savings.get(row.sessionId) ?? { savedUsd: 0, unpricedRequests: 0 };
    const saved = promptCacheSaving(models, row.provider, row.model, row.cacheReadTokens, row.cacheWriteTokens);
    if (saved === null) entry.unpricedRequests += row.requests;
    else entry.savedUsd += saved;
    savings.set(row.sessionId, entry);
  }
  return savings;
}

/** One change of a session's tool surface, priced. */
export interface SurfaceChange {
  requestId: string;
  sessionId: string;
  startedAt: number;
  provider: string | null;
  model: string | null;
  /** `anticipated`: a later user turn grew the surface before the call; `recovery`: the model asked for a toolset. */
  kind: 'anticipated' | 'recovery';
  /** The toolsets added before the call (anticipation); empty for a recovery. */
  toolsets: string[];
  recoveries: number;
  cacheWriteTokens: number;
  /** Prompt tokens the request did not read from the cache (writes included). */
  uncachedInputTokens: number;
  /** What those tokens cost (`cacheCostMethods.surfaceChange`); null when unpriced or no usage was recorded. */
  costUsd: number | null;
}

function priced(row: SurfaceChangeRow, models: InsightModels): SurfaceChange {
  const input = row.inputTokens ?? 0;
  const writes = row.cacheWriteTokens ?? 0;
  const uncached = Math.max(input - (row.cacheReadTokens ?? 0), 0);
  const cost =
    row.servedProvider === null || row.servedModel === null || row.inputTokens === null
      ? null
      : models.price(row.servedProvider, row.servedModel, { inputTokens: uncached, cacheWriteTokens: Math.min(writes, uncached) });
  return {
    requestId: row.requestId,
    sessionId: row.sessionId,
    startedAt: row.startedAt,
    provider: row.servedProvider,
    model: row.servedModel,
    kind: row.anticipatedToolsets !== null ? 'anticipated' : 'recovery',
    toolsets: row.anticipatedToolsets === null ? [] : row.anticipatedToolsets.split(','),
    recoveries: row.recoveries,
    cacheWriteTokens: writes,
    uncachedInputTokens: uncached,
    costUsd: cost,
  };
}

/** Every change of a tool surface in the query, oldest first, each with what it cost. */
export function surfaceChanges(reader: LedgerReader, models: InsightModels, query: SessionQuery = {}): SurfaceChange[] {
  return reader.surfaceChanges(query).map((row) => priced(row, models));
}

export interface SurfaceChangeTotals {
  changes: number;
  cacheWriteTokens: number;
  costUsd: number;
  unpricedChanges: number;
}

export function surfaceChangeTotals(changes: readonly SurfaceChange[]): SurfaceChangeTotals {
  const totals: SurfaceChangeTotals = { changes: 0, cacheWriteTokens: 0, costUsd: 0, unpricedChanges: 0 };
  for (const change of changes) {
    totals.changes += 1;
    totals.cacheWriteTokens += change.cacheWriteTokens;
    if (change.costUsd === null) totals.unpricedChanges += 1;
    else totals.costUsd += change.costUsd;
  }
  return totals;
}

/** One session's prompt-cache figures, with what names it. */
export interface SessionCacheSummary {
  sessionId: string;
  agent: string | null;
  title: string | null;
  firstPrompt: string | null;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheSavedUsd: number;
  cacheSavingUnpricedRequests: number;
  surfaceChanges: number;
  surfaceChangeCostUsd: number;
}

/** Every session of the query with its cache saving and surface-change cost, the largest saving first. */
export function sessionCacheSummaries(reader: LedgerReader, models: InsightModels, query: SessionQuery = {}): SessionCacheSummary[] {
  const savings = sessionCacheSavings(reader, models, query);
  const changes = new Map<string, SurfaceChange[]>();
  for (const change of surfaceChanges(reader, models, query)) changes.set(change.sessionId, [...(changes.get(change.sessionId) ?? []), change]);
  return reader
    .sessionStats(query)
    .map((stats) => {
      const mine = changes.get(stats.sessionId) ?? [];
      return {
        sessionId: stats.sessionId,
        agent: stats.agent,
        title: stats.title,
        firstPrompt: stats.firstPrompt,
        cacheReadTokens: stats.cacheReadTokens,
        cacheWriteTokens: stats.cacheWriteTokens,
        cacheSavedUsd: savings.get(stats.sessionId)?.savedUsd ?? 0,
        cacheSavingUnpricedRequests: savings.get(stats.sessionId)?.unpricedRequests ?? 0,
        surfaceChanges: mine.length,
        surfaceChangeCostUsd: mine.reduce((total, change) => total + (change.costUsd ?? 0), 0),
      };
    })
    .sort((left, right) => right.cacheSavedUsd - left.cacheSavedUsd || left.sessionId.localeCompare(right.sessionId));
}
