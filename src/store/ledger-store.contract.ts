import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/ledger-record.js';
import { failedOver } from '../core/ledger-record.js';
import { type LedgerFact, factOf } from './ledger-facts.js';
import type { LedgerFilter, LedgerStore, LedgerTotals } from './ledger-store.js';
import { makeRequestRecord, makeSampleRecords } from './ledger-store.fixtures.js';

/** Creates a fresh, empty store; the suite closes it after each case. */
export type LedgerStoreFactory = () => Promise<LedgerStore> | LedgerStore;

/** Sums computed here, independently of any store, from the records the case inserted. */
function expectedTotals(records: readonly RequestRecord[]): LedgerTotals {
  const sum = (value: (record: RequestRecord) => number): number =>
    records.reduce((total, record) => total + value(record), 0);
  return {
    requests: records.length,
    failedRequests: records.filter((record) => record.status >= 400).length,
    inputTokens: sum((record) => record.usage?.inputTokens ?? 0),
    outputTokens: sum((record) => record.usage?.outputTokens ?? 0),
    cacheReadTokens: sum((record) => record.usage?.cacheReadTokens ?? 0),
    cacheWriteTokens: sum((record) => record.usage?.cacheWriteTokens ?? 0),
    reasoningTokens: sum((record) => record.usage?.reasoningTokens ?? 0),
    costUsd: sum((record) => record.costUsd ?? 0),
    unpricedRequests: records.filter((record) => record.costUsd === null).length,
    estimatedRequests: records.filter((record) => record.usageEstimated).length,
  };
}

function expectTotals(actual: LedgerTotals, records: readonly RequestRecord[]): void {
  const { costUsd, ...expected } = expectedTotals(records);
  const { costUsd: actualCost, ...rest } = actual;
  expect(rest).toEqual(expected);
  expect(actualCost).toBeCloseTo(costUsd, 9);
}

function selectRecords(records: readonly RequestRecord[], filter: LedgerFilter): RequestRecord[] {
  return records.filter(
    (record) =>
      (filter.since === undefined || record.startedAt >= filter.since) &&
      (filter.until === undefined || record.startedAt < filter.until) &&
      (filter.session === undefined || record.sessionId === filter.session) &&
      (filter.model === undefined || record.servedModel === filter.model || record.requestedModel === filter.model),
  );
}

function newestFirst(records: readonly RequestRecord[]): RequestRecord[] {
  return [...records].sort(
    (left, right) => right.startedAt - left.startedAt || (left.requestId < right.requestId ? 1 : -1),
  );
}

/** Sample records with tool and model routing decisions on some of them, for the facts feed. */
function withDecisions(records: readonly RequestRecord[]): RequestRecord[] {
  return records.map((record, index) => {
    if (index % 3 !== 0) return record;
    return {
      ...record,
      decision: {
        ...record.decision,
        tools: {
          mode: index % 2 === 0 ? 'on' : 'shadow',
          outcome: 'narrowed',
          reason: 'predicted',
          predictedToolsets: ['terminal'],
          fullToolCount: 30,
          sentToolCount: 5,
          fullSchemaTokens: 16_000 + index,
          sentSchemaTokens: 3_000,
          ...(index % 9 === 0 ? { recoveries: 1 } : {}),
          ...(index % 12 === 0 ? { anticipatedToolsets: ['web', 'browser', 'file'] } : {}),
        },
        models: { policy: 'difficulty', reason: `reason ${index}`, candidates: [] },
        ...(index % 6 === 0
          ? { session: { id: `s-${index}`, source: 'fingerprint' as const, agent: 'Hermes Agent', firstPrompt: `fix the “build” ${index}`, title: `Build ${index}` } }
          : {}),
      },
    };
  });
}

/** Reads the feed from `cursor` until it says complete; returns what came and where to go on. */
async function readFacts(store: LedgerStore, cursor: string | undefined, limit: number): Promise<{ facts: LedgerFact[]; cursor: string }> {
  const facts: LedgerFact[] = [];
  let next = cursor;
  for (let pages = 0; pages < 10_000; pages += 1) {
    const page = await store.factsSince({ limit, ...(next === undefined ? {} : { cursor: next }) });
    facts.push(...page.facts);
    next = page.cursor;
    if (page.complete) return { facts, cursor: page.cursor };
  }
  throw new Error('the facts feed never completed');
}

/** The first copy of each request, by id (the feed may send a fact again; consumers keep the first). */
function byRequest(facts: readonly LedgerFact[]): Map<string, LedgerFact> {
  const map = new Map<string, LedgerFact>();
  for (const fact of facts) if (!map.has(fact.requestId)) map.set(fact.requestId, fact);
  return map;
}

/**
 * The behaviour every `LedgerStore` must have. An implementation's test file is one call:
 * `describeLedgerStoreContract('sqlite', () => new SqliteLedgerStore({ path }))`.
 */
export function describeLedgerStoreContract(name: string, factory: LedgerStoreFactory): void {
  describe(`LedgerStore contract: ${name}`, () => {
    let store: LedgerStore;
    const sample = makeSampleRecords(300);
    const windowStart = Date.UTC(2026, 10, 19, 6, 0, 0);
    const windowEnd = Date.UTC(2026, 10, 20, 18, 0, 0);

    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await store.close();
    });

    it('starts empty', async () => {
      expectTotals(await store.totals(), []);
      expect(await store.daily()).toEqual([]);
      expect(await store.requests()).toEqual({ items: [] });
    });

    it('returns every field of a record as it went in, attempts in order', async () => {
      const full = makeRequestRecord({
        requestId: 'full',
        errorClass: undefined,
        content: { request: { messages: [{ role: 'user', content: 'hi' }] }, response: { text: 'hello' } },
        attempts: [
          {
            provider: 'openai',
            model: 'gpt-4o',
            keyId: 'k1',
            startedAt: 1,
            durationMs: 10.5,
            status: 0,
            errorClass: 'connection',
            errorMessage: 'reset',
          },
          { provider: 'anthropic', model: 'claude-sonnet-4-5', keyId: 'k2', startedAt: 2, durationMs: 20, status: 200 },
        ],
      });
      delete full.errorClass;
      const bare: RequestRecord = {
        requestId: 'bare',
        startedAt: full.startedAt - 1000,
        inboundFormat: 'anthropic-messages',
        endpoint: '/v1/messages',
        requestedModel: 'claude-x',
        status: 503,
        errorClass: 'unavailable',
        streaming: true,
        totalMs: 4,
        overheadMs: 4,
        usageEstimated: false,
        costUsd: 0,
        decision: {},
        attempts: [],
      };
      await store.insertBatch([full, bare]);
      const page = await store.requests();
      expect(page.items).toEqual([full, bare]);
      expect(page.items[1]).not.toHaveProperty('usage');
      expect(page.items[1]).not.toHaveProperty('content');
      expect(page.nextCursor).toBeUndefined();
    });

    it('keeps a null cost null and counts it as unpriced, not as $0', async () => {
      await store.insertBatch([
        makeRequestRecord({ requestId: 'priced', costUsd: 0.25 }),
        makeRequestRecord({ requestId: 'unpriced', costUsd: null, servedModel: 'mystery' }),
      ]);
      const totals = await store.totals();
      expect(totals.unpricedRequests).toBe(1);
      expect(totals.costUsd).toBeCloseTo(0.25, 12);
      const unpriced = (await store.requests({ model: 'mystery' })).items[0];
      expect(unpriced?.costUsd).toBeNull();
    });

    it('is idempotent per request id, so a retried batch does not double count', async () => {
      await store.insertBatch(sample.slice(0, 50));
      await store.insertBatch(sample.slice(25, 75));
      expectTotals(await store.totals(), sample.slice(0, 75));
    });

    it('stores a batch all or nothing', async () => {
      const unstorable = makeRequestRecord({
        requestId: 'unstorable',
        content: { request: { size: BigInt(1), call: () => 1 } },
      });
      await expect(store.insertBatch([makeRequestRecord({ requestId: 'fine' }), unstorable])).rejects.toThrow();
      expect((await store.totals()).requests).toBe(0);
    });

    it('totals equal the sums of the inserted records, for every filter', async () => {
      await store.insertBatch(sample.slice(0, 120));
      await store.insertBatch(sample.slice(120));
      const filters: LedgerFilter[] = [
        {},
        { since: windowStart },
        { until: windowEnd },
        { since: windowStart, until: windowEnd },
        { model: 'gpt-4o' },
        { model: 'auto' },
        { session: 'session-2' },
        { session: 'session-1', model: 'claude-sonnet-4-5', since: windowStart },
        { model: 'nothing-like-this' },
      ];
      for (const filter of filters) expectTotals(await store.totals(filter), selectRecords(sample, filter));
    });

    it('clientKeys: one row per client key (requests without one left out), by key id, for a filter', async () => {
      const keys = [undefined, 'key-b', 'key-a', 'admin'] as const;
      const keyed = sample.map((record, index) => {
        const { clientKeyId: _clientKeyId, ...rest } = record;
        const clientKeyId = keys[index % keys.length];
        return clientKeyId === undefined ? rest : { ...rest, clientKeyId };
      });
      await store.insertBatch(keyed);
      for (const filter of [{}, { since: windowStart }, { since: windowStart, until: windowEnd }] satisfies LedgerFilter[]) {
        const selected = selectRecords(keyed, filter);
        const rows = await store.clientKeys(filter);
        const expectedIds = [...new Set(selected.flatMap((record) => (record.clientKeyId === undefined ? [] : [record.clientKeyId])))].sort();
        expect(rows.map((row) => row.clientKeyId)).toEqual(expectedIds);
        for (const { clientKeyId, ...totals } of rows) {
          expectTotals(totals, selected.filter((record) => record.clientKeyId === clientKeyId));
        }
      }
      expect(await store.clientKeys({ model: 'nothing-like-this' })).toEqual([]);
    });

    it('daily: one row per day at the given offset, with the models served that day', async () => {
      await store.insertBatch(sample);
      for (const utcOffsetMinutes of [0, 330, -480]) {
        const rows = await store.daily({ utcOffsetMinutes, since: windowStart });
        const selected = selectRecords(sample, { since: windowStart });
        const byDay = new Map<string, RequestRecord[]>();
        for (const record of selected) {
          const day = new Date(record.startedAt + utcOffsetMinutes * 60_000).toISOString().slice(0, 10);
          byDay.set(day, [...(byDay.get(day) ?? []), record]);
        }
        expect(rows.map((row) => row.date)).toEqual([...byDay.keys()].sort());
        for (const row of rows) {
          const records = byDay.get(row.date) ?? [];
          const { date, models, ...totals } = row;
          expectTotals(totals, records);
          const served = new Set(records.flatMap((record) => (record.servedModel ? [record.servedModel] : [])));
          expect(models).toEqual([...served].sort());
        }
      }
    });

    it('sessions: one row per session (and one for none), most recent first', async () => {
      await store.insertBatch(sample);
      const rows = await store.sessions({ until: windowEnd });
      const selected = selectRecords(sample, { until: windowEnd });
      const ids = new Set(selected.map((record) => record.sessionId ?? null));
      expect(rows).toHaveLength(ids.size);
      for (const row of rows) {
        const records = selected.filter((record) => (record.sessionId ?? null) === row.sessionId);
        const { sessionId, firstStartedAt, lastStartedAt, models, ...totals } = row;
        expectTotals(totals, records);
        expect(firstStartedAt).toBe(Math.min(...records.map((record) => record.startedAt)));
        expect(lastStartedAt).toBe(Math.max(...records.map((record) => record.startedAt)));
      }
      const order = rows.map((row) => row.lastStartedAt);
      expect(order).toEqual([...order].sort((left, right) => right - left));
    });

    it('models: a request_toolset re-issue is a recovery, not a failover', async () => {
      const attempt = makeRequestRecord().attempts[0]!;
      const tools = { mode: 'on' as const, outcome: 'narrowed' as const, reason: 'predicted', predictedToolsets: ['web'], fullToolCount: 30, sentToolCount: 5, recoveries: 1 };
      const recovered = makeRequestRecord({ requestId: 'recovered', attempts: [attempt, attempt], decision: { tools } });
      const failedOverThenRecovered = makeRequestRecord({
        requestId: 'failed-over',
        attempts: [{ ...attempt, status: 429, errorClass: 'rate_limited' }, attempt, attempt],
        decision: { tools },
      });
      await store.insertBatch([recovered, failedOverThenRecovered]);
      const rows = await store.models();
      expect(rows.map((row) => row.failovers)).toEqual([1]);
    });

    it('models: one row per served provider and model, failed requests under the requested model', async () => {
      await store.insertBatch(sample);
      const rows = await store.models();
      const keyOf = (record: RequestRecord): string =>
        JSON.stringify([record.servedProvider ?? null, record.servedModel ?? record.requestedModel]);
      const groups = new Map<string, RequestRecord[]>();
      for (const record of sample) groups.set(keyOf(record), [...(groups.get(keyOf(record)) ?? []), record]);
      expect(rows).toHaveLength(groups.size);
      for (const row of rows) {
        const records = groups.get(JSON.stringify([row.provider, row.model])) ?? [];
        const { provider, model, failovers, averageTotalMs, averageOverheadMs, averageTimeToFirstByteMs, ...totals } =
          row;
        expectTotals(totals, records);
        expect(failovers).toBe(records.filter(failedOver).length);
        const mean = (values: number[]): number => values.reduce((total, value) => total + value, 0) / values.length;
        expect(averageTotalMs).toBeCloseTo(mean(records.map((record) => record.totalMs)), 6);
        expect(averageOverheadMs).toBeCloseTo(mean(records.map((record) => record.overheadMs)), 6);
        const ttfb = records.flatMap((record) =>
          record.timeToFirstByteMs === undefined ? [] : [record.timeToFirstByteMs],
        );
        if (ttfb.length === 0) expect(averageTimeToFirstByteMs).toBeNull();
        else expect(averageTimeToFirstByteMs).toBeCloseTo(mean(ttfb), 6);
      }
      const costs = rows.map((row) => row.costUsd);
      expect(costs).toEqual([...costs].sort((left, right) => right - left));
    });

    it('requests: pages walk the filtered rows newest first, without gaps or repeats', async () => {
      await store.insertBatch(sample);
      const filter: LedgerFilter = { since: windowStart, model: 'gpt-4o' };
      const seen: RequestRecord[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.requests({ ...filter, limit: 7, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(7);
        seen.push(...page.items);
        cursor = page.nextCursor;
        pages += 1;
        if (pages === 2) {
          // Rows arriving while someone pages must not shift the pages already handed out.
          await store.insertBatch([makeRequestRecord({ requestId: 'late', startedAt: Date.UTC(2027, 0, 1) })]);
        }
      } while (cursor !== undefined && pages < 100);
      expect(seen).toEqual(newestFirst(selectRecords(sample, filter)));
    });

    it('facts: every request once through the pages, decision fields and failed attempts extracted', async () => {
      const records = withDecisions(sample);
      await store.insertBatch(records.slice(0, 150));
      await store.insertBatch(records.slice(150));
      const { facts } = await readFacts(store, undefined, 40);
      const seen = byRequest(facts);
      expect(seen.size).toBe(records.length);
      for (const record of records) expect(seen.get(record.requestId), record.requestId).toEqual(factOf(record));
      // Written out, independently of factOf: a failover row and a routed one.
      const failover = records.find((record) => record.attempts.length > 1 && record.decision.tools !== undefined);
      expect(seen.get(failover?.requestId ?? '')).toMatchObject({
        attemptCount: 2,
        toolMode: expect.stringMatching(/^(on|shadow)$/),
        sentSchemaTokens: 3_000,
        modelPolicy: 'difficulty',
        failedAttempts: [{ provider: 'openai', model: 'gpt-4o', errorClass: 'rate_limited' }],
      });
      const labelled = records.find((record) => record.decision.tools?.anticipatedToolsets !== undefined && record.decision.session?.title !== undefined);
      expect(seen.get(labelled?.requestId ?? '')).toMatchObject({
        anticipatedToolsets: 'web,browser,file',
        sessionAgent: 'Hermes Agent',
        sessionPrompt: expect.stringMatching(/^fix the “build” \d+$/),
        sessionTitle: expect.stringMatching(/^Build \d+$/),
      });
      const bare = records.find((record) => record.decision.tools === undefined && record.usage === undefined);
      expect(seen.get(bare?.requestId ?? '')).toMatchObject({ toolMode: null, fullSchemaTokens: null, modelPolicy: null, inputTokens: null, servedModel: null });
    });

    it('facts: from a finished cursor, only the rows written since; none lost across rounds', async () => {
      await store.insertBatch(sample.slice(0, 100));
      const first = await readFacts(store, undefined, 30);
      expect(byRequest(first.facts).size).toBe(100);
      const quiet = await readFacts(store, first.cursor, 30);
      expect(quiet.facts.filter((fact) => !byRequest(first.facts).has(fact.requestId))).toEqual([]);
      await store.insertBatch(sample.slice(100, 180));
      await store.insertBatch([makeRequestRecord({ requestId: 'old-but-late', startedAt: Date.UTC(2020, 0, 1) })]);
      const second = await readFacts(store, quiet.cursor, 30);
      const fresh = [...byRequest(second.facts).keys()].filter((id) => !byRequest(first.facts).has(id));
      expect(fresh.sort()).toEqual([...sample.slice(100, 180).map((record) => record.requestId), 'old-but-late'].sort());
      await expect(store.factsSince({ cursor: 'not a cursor' })).rejects.toThrow(/cursor/);
    });

    it('clamps the page size and rejects a malformed cursor', async () => {
      await store.insertBatch(sample.slice(0, 10));
      expect((await store.requests({ limit: 0 })).items).toHaveLength(1);
      expect((await store.requests({ limit: 3 })).items).toHaveLength(3);
      await expect(store.requests({ cursor: 'not a cursor' })).rejects.toThrow(/cursor/);
    });
  });
}
