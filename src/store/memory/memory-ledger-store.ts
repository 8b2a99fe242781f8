import type { RequestRecord } from '../../core/ledger-record.js';
import { failedOver } from '../../core/ledger-record.js';
import { clampPageSize, decodeLedgerCursor, encodeLedgerCursor, isAfterCursor } from '../ledger-cursor.js';
import type {
  ClientKeyRow,
  DailyQuery,
  DailyRow,
  LedgerFilter,
  LedgerStore,
  LedgerTotals,
  ModelRow,
  RequestsPage,
  RequestsQuery,
  SessionRow,
} from '../ledger-store.js';
import { defaultRequestsPageSize, maximumRequestsPageSize } from '../ledger-store.js';
import { type LedgerFactsPage, type LedgerFactsQuery, defaultFactsPageSize, factOf, maximumFactsPageSize } from '../ledger-facts.js';
import { addToTotals, compareClientKeyRows, compareModelRows, compareSessionRows, dayOf, emptyTotals, matchesFilter } from '../ledger-totals.js';

/** Ledger kept in process memory: for tests and for running without a data directory. Lost on exit. */
export class MemoryLedgerStore implements LedgerStore {
  readonly specificationVersion = 'v1';
  readonly #records = new Map<string, RequestRecord>();
  /** Request ids in the order they were stored: the facts feed's cursor is a position in it. */
  readonly #arrival: string[] = [];

  async insertBatch(records: readonly RequestRecord[]): Promise<void> {
    // Copy everything first so a record that cannot be stored fails the whole batch (all or nothing). Decision
    // and content go through JSON, as in the SQL stores, so both reject the same values.
    const copies = records.map(({ decision, content, ...rest }) => {
      const copy: RequestRecord = {
        ...structuredClone(rest),
        decision: JSON.parse(JSON.stringify(decision)) as RequestRecord['decision'],
      };
      if (content !== undefined) copy.content = JSON.parse(JSON.stringify(content)) as RequestRecord['content'];
      return copy;
    });
    for (const copy of copies) {
      if (!this.#records.has(copy.requestId)) {
        this.#records.set(copy.requestId, copy);
        this.#arrival.push(copy.requestId);
      }
    }
  }

  #select(filter: LedgerFilter): RequestRecord[] {
    return [...this.#records.values()].filter((record) => matchesFilter(record, filter));
  }

  async totals(query: LedgerFilter = {}): Promise<LedgerTotals> {
    const totals = emptyTotals();
    for (const record of this.#select(query)) addToTotals(totals, record);
    return totals;
  }

  async clientKeys(query: LedgerFilter = {}): Promise<ClientKeyRow[]> {
    const rows = new Map<string, ClientKeyRow>();
    for (const record of this.#select(query)) {
      if (record.clientKeyId === undefined) continue;
      let row = rows.get(record.clientKeyId);
      if (!row) {
        row = { clientKeyId: record.clientKeyId, ...emptyTotals() };
        rows.set(record.clientKeyId, row);
      }
      addToTotals(row, record);
    }
    return [...rows.values()].sort(compareClientKeyRows);
  }

  async daily(query: DailyQuery = {}): Promise<DailyRow[]> {
    const offset = query.utcOffsetMinutes ?? 0;
    const rows = new Map<string, DailyRow & { modelSet: Set<string> }>();
    for (const record of this.#select(query)) {
      const date = dayOf(record.startedAt, offset);
      let row = rows.get(date);
      if (!row) {
        row = { date, models: [], modelSet: new Set(), ...emptyTotals() };
        rows.set(date, row);
      }
      addToTotals(row, record);
      if (record.servedModel !== undefined) row.modelSet.add(record.servedModel);
    }
    return [...rows.values()]
      .sort((left, right) => left.date.localeCompare(right.date))
      .map(({ modelSet, ...row }) => ({ ...row, models: [...modelSet].sort() }));
  }

  async sessions(query: LedgerFilter = {}): Promise<SessionRow[]> {
    const rows = new Map<string | null, SessionRow & { modelSet: Set<string> }>();
    for (const record of this.#select(query)) {
      const sessionId = record.sessionId ?? null;
      let row = rows.get(sessionId);
      if (!row) {
        row = {
          sessionId,
          firstStartedAt: record.startedAt,
          lastStartedAt: record.startedAt,
          models: [],
          modelSet: new Set(),
          ...emptyTotals(),
        };
        rows.set(sessionId, row);
      }
      addToTotals(row, record);
      row.firstStartedAt = Math.min(row.firstStartedAt, record.startedAt);
      row.lastStartedAt = Math.max(row.lastStartedAt, record.startedAt);
      if (record.servedModel !== undefined) row.modelSet.add(record.servedModel);
    }
    return [...rows.values()]
      .map(({ modelSet, ...row }) => ({ ...row, models: [...modelSet].sort() }))
      .sort(compareSessionRows);
  }

  async models(query: LedgerFilter = {}): Promise<ModelRow[]> {
    type Accumulator = ModelRow & { totalMs: number; overheadMs: number; ttfbMs: number; ttfbCount: number };
    const rows = new Map<string, Accumulator>();
    for (const record of this.#select(query)) {
      const provider = record.servedProvider ?? null;
      const model = record.servedModel ?? record.requestedModel;
      const key = JSON.stringify([provider, model]);
      let row = rows.get(key);
      if (!row) {
        row = {
          provider,
          model,
          failovers: 0,
          averageTotalMs: 0,
          averageOverheadMs: 0,
          averageTimeToFirstByteMs: null,
          totalMs: 0,
          overheadMs: 0,
          ttfbMs: 0,
          ttfbCount: 0,
          ...emptyTotals(),
        };
        rows.set(key, row);
      }
      addToTotals(row, record);
      if (failedOver(record)) row.failovers += 1;
      row.totalMs += record.totalMs;
      row.overheadMs += record.overheadMs;
      if (record.timeToFirstByteMs !== undefined) {
        row.ttfbMs += record.timeToFirstByteMs;
        row.ttfbCount += 1;
      }
    }
    return [...rows.values()]
      .map(({ totalMs, overheadMs, ttfbMs, ttfbCount, ...row }) => ({
        ...row,
        averageTotalMs: totalMs / row.requests,
        averageOverheadMs: overheadMs / row.requests,
        averageTimeToFirstByteMs: ttfbCount === 0 ? null : ttfbMs / ttfbCount,
      }))
      .sort(compareModelRows);
  }

  async requests(query: RequestsQuery = {}): Promise<RequestsPage> {
    const limit = clampPageSize(query.limit, defaultRequestsPageSize, maximumRequestsPageSize);
    const cursor = query.cursor === undefined ? undefined : decodeLedgerCursor(query.cursor);
    const sorted = this.#select(query)
      .filter((record) => cursor === undefined || isAfterCursor(record, cursor))
      .sort(
        (left, right) =>
          right.startedAt - left.startedAt || (left.requestId < right.requestId ? 1 : left.requestId > right.requestId ? -1 : 0),
      );
    const items = sorted.slice(0, limit).map((record) => structuredClone(record));
    const last = items.at(-1);
    return sorted.length > limit && last ? { items, nextCursor: encodeLedgerCursor(last) } : { items };
  }

  async factsSince(query: LedgerFactsQuery = {}): Promise<LedgerFactsPage> {
    const limit = clampPageSize(query.limit, defaultFactsPageSize, maximumFactsPageSize);
    const start = query.cursor === undefined ? 0 : Number(query.cursor);
    if (!Number.isInteger(start) || start < 0) throw new Error(`invalid facts cursor: ${query.cursor}`);
    const ids = this.#arrival.slice(start, start + limit);
    const facts = ids.flatMap((id) => {
      const record = this.#records.get(id);
      return record === undefined ? [] : [factOf(record)];
    });
    const next = start + ids.length;
    return { facts, cursor: String(next), complete: next >= this.#arrival.length };
  }

  async close(): Promise<void> {}
}
