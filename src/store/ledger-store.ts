import type { RequestRecord } from '../core/ledger-record.js';
import type { LedgerFactsPage, LedgerFactsQuery } from './ledger-facts.js';

/**
 * Which requests a report covers. Times are epoch milliseconds; `since` is inclusive, `until` exclusive, so
 * consecutive windows never count a request twice. `model` matches either the served or the requested model.
 */
export interface LedgerFilter {
  since?: number;
  until?: number;
  model?: string;
  session?: string;
}

/** Requests, failures, tokens and cost: what every sum over ledger rows holds. Missing usage counts as zero tokens. */
export interface UsageSums {
  requests: number;
  /** Requests answered with a status of 400 or more. */
  failedRequests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** Sum over priced requests only. */
  costUsd: number;
}

/** Token and cost totals shared by every aggregate row of the store. */
export interface LedgerTotals extends UsageSums {
  /** Requests whose cost is unknown (NULL): a report flags them rather than counting them as $0. */
  unpricedRequests: number;
  /** Requests whose usage was estimated with a tokenizer because the provider reported none. */
  estimatedRequests: number;
}

export interface DailyRow extends LedgerTotals {
  /** `YYYY-MM-DD` in the requested UTC offset. */
  date: string;
  /** Distinct served models that day, sorted. */
  models: string[];
}

export interface SessionRow extends LedgerTotals {
  /** `null` groups requests that carried no session. */
  sessionId: string | null;
  firstStartedAt: number;
  lastStartedAt: number;
  models: string[];
}

export interface ClientKeyRow extends LedgerTotals {
  /** The application key (or `admin`) the requests came with; requests without one are left out. */
  clientKeyId: string;
}

export interface ModelRow extends LedgerTotals {
  /** Served provider and model; `null` provider for requests nothing served (the model is then the requested one). */
  provider: string | null;
  model: string;
  /** Requests that needed more than one upstream attempt. */
  failovers: number;
  averageTotalMs: number;
  averageOverheadMs: number;
  /** Over requests that reported a time to first byte; `null` when none did. */
  averageTimeToFirstByteMs: number | null;
}

export interface DailyQuery extends LedgerFilter {
  /**
   * Minutes east of UTC used to cut days (local time in the CLI). One fixed offset for the whole query, so a
   * window that spans a daylight-saving change is cut at the offset given.
   */
  utcOffsetMinutes?: number;
}

export interface RequestsQuery extends LedgerFilter {
  /** Page size, 1..1000; 50 when omitted. */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

export interface RequestsPage {
  /** Newest first, each with its attempts in the order they were made. */
  items: RequestRecord[];
  /** Pass back as `cursor` for the next (older) page; undefined on the last page. */
  nextCursor?: string;
}

/**
 * Durable ledger of client requests and their upstream attempts (version 1). Every implementation runs the
 * contract suite in `ledger-store.contract.ts`.
 *
 * `insertBatch` is atomic (all rows or none) and idempotent per `requestId`, so the ledger can retry a batch
 * whose outcome it does not know without double counting. Aggregation happens in the store (SQL for SQL stores),
 * never by loading rows into the caller.
 */
export interface LedgerStore {
  readonly specificationVersion: 'v1';
  insertBatch(records: readonly RequestRecord[]): Promise<void>;
  daily(query?: DailyQuery): Promise<DailyRow[]>;
  sessions(query?: LedgerFilter): Promise<SessionRow[]>;
  models(query?: LedgerFilter): Promise<ModelRow[]>;
  requests(query?: RequestsQuery): Promise<RequestsPage>;
  totals(query?: LedgerFilter): Promise<LedgerTotals>;
  /**
   * Totals per client key, sorted by key id; requests without a key are left out. A single instance starts its
   * per-key daily limits from it (`src/security/daily-totals-from-ledger.ts`), so a restart does not reset them.
   */
  clientKeys(query?: LedgerFilter): Promise<ClientKeyRow[]>;
  /**
   * Every request as a compact fact, in pages, then only what was written since: the feed of the insight
   * reader's copy (`src/insight/ledger-mirror.ts`). A fact may come again in a later page (a store that cannot
   * yet tell whether a concurrent writer's earlier rows are committed re-sends its newest ones); consumers keep
   * the first copy per `requestId`, which is exact because stored rows never change. No written row is skipped.
   */
  factsSince(query?: LedgerFactsQuery): Promise<LedgerFactsPage>;
  close(): Promise<void>;
}

export const defaultRequestsPageSize = 50;
export const maximumRequestsPageSize = 1000;
