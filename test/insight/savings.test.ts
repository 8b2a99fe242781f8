import { afterEach, describe, expect, it } from 'vitest';
import { LedgerReader } from '../../src/insight/ledger-reader.js';
import { requestSavings, sumSavings } from '../../src/insight/savings.js';
import { overview } from '../../src/insight/insight-views.js';
import { ledgerFile, prices, record, testModels } from './insight-fixture.js';

const day = Date.UTC(2026, 10, 20, 10);
let reader: LedgerReader | undefined;
afterEach(() => reader?.close());

describe('savings', () => {
  it('prices removed schema tokens, routing and cache exactly as written out by hand', async () => {
    const records = [
      // Routed from big to cheap, tool schema narrowed, no cache.
      record({ id: 'r1', at: day, session: 's', requested: 'big', served: 'cheap', input: 20_000, output: 1_000, full: 16_000, sent: 2_000 }),
      // Requested the alias (means big), served big: no routing saving; cache read 50,000 and write 1,000.
      record({ id: 'r2', at: day + 1, session: 's', requested: 'hermes-router', served: 'big', input: 60_000, output: 500, cacheRead: 50_000, cacheWrite: 1_000, full: 16_000, sent: 4_000 }),
      // Shadow mode removed nothing from what was sent.
      record({ id: 'r3', at: day + 2, requested: 'big', served: 'big', input: 1_000, output: 10, full: 16_000, sent: 2_000, toolMode: 'shadow' }),
      // Unpriced served model: no saving claimed, counted as unpriced.
      record({ id: 'r4', at: day + 3, requested: 'big', served: 'mystery', input: 5_000, output: 100, full: 1_000, sent: 100 }),
      // Failed without usage.
      record({ id: 'r5', at: day + 4, requested: 'big', status: 502, cost: 0 }),
    ];
    reader = LedgerReader.open(await ledgerFile(records));
    if (!reader) throw new Error('no ledger');
    const models = testModels();
    const summary = sumSavings(reader.usageGroups(), models);

    const toolUsd = (14_000 * prices.cheap.input + 12_000 * prices.big.cache_read) / 1e6;
    expect(summary.toolSchema.tokens).toBe(14_000 + 12_000 + 900);
    expect(summary.toolSchema.unpriced).toBe(900);
    expect(summary.toolSchema.usd).toBeCloseTo(toolUsd, 12);

    const r1Actual = (20_000 * prices.cheap.input + 1_000 * prices.cheap.output) / 1e6;
    const r1OnBig = (20_000 * prices.big.input + 1_000 * prices.big.output) / 1e6;
    expect(summary.modelRouting.usd).toBeCloseTo(r1OnBig - r1Actual, 12);

    const cacheUsd = (50_000 * (prices.big.input - prices.big.cache_read) - 1_000 * (prices.big.cache_write - prices.big.input)) / 1e6;
    expect(summary.promptCache.tokens).toBe(50_000);
    expect(summary.promptCache.usd).toBeCloseTo(cacheUsd, 12);
    expect(summary.totalUsd).toBeCloseTo(toolUsd + (r1OnBig - r1Actual) + cacheUsd, 12);

    // Per request, the same arithmetic sums to the same figure.
    const perRequest = records.map((entry) =>
      requestSavings(
        {
          provider: entry.servedProvider ?? null,
          model: entry.servedModel ?? null,
          requestedModel: entry.requestedModel,
          costUsd: entry.costUsd,
          usage: entry.usage ?? null,
          removedSchemaTokens:
            entry.decision.tools?.mode === 'on'
              ? Math.max((entry.decision.tools.fullSchemaTokens ?? 0) - (entry.decision.tools.sentSchemaTokens ?? 0), 0)
              : 0,
          status: entry.status,
        },
        models,
      ).totalUsd,
    );
    expect(perRequest.reduce((sum, value) => sum + value, 0)).toBeCloseTo(summary.totalUsd, 12);
  });

  it('counts routing to a dearer model as a negative saving', async () => {
    reader = LedgerReader.open(await ledgerFile([record({ id: 'up', at: day, requested: 'cheap', served: 'big', input: 1_000, output: 1_000 })]));
    if (!reader) throw new Error('no ledger');
    const summary = sumSavings(reader.usageGroups(), testModels());
    expect(summary.modelRouting.usd).toBeCloseTo(((1_000 * 1 + 1_000 * 2) - (1_000 * 10 + 1_000 * 30)) / 1e6, 12);
  });

  it('overview totals and day series equal sums over the inserted records', async () => {
    const records = Array.from({ length: 120 }, (_, index) =>
      record({
        id: `x${index}`,
        at: day + (index % 3) * 86_400_000 + index,
        session: `s${index % 7}`,
        requested: index % 2 === 0 ? 'big' : 'cheap',
        served: index % 5 === 0 ? 'mystery' : index % 2 === 0 ? 'cheap' : 'big',
        input: 1_000 + index * 10,
        output: 50 + index,
        cacheRead: index % 4 === 0 ? 500 : 0,
        ...(index % 11 === 0 ? { status: 500 } : {}),
      }),
    );
    reader = LedgerReader.open(await ledgerFile(records));
    if (!reader) throw new Error('no ledger');
    const view = overview(reader, testModels(), {});
    const sum = (pick: (entry: (typeof records)[number]) => number): number => records.reduce((total, entry) => total + pick(entry), 0);
    expect(view.totals.requests).toBe(records.length);
    expect(view.totals.inputTokens).toBe(sum((entry) => entry.usage?.inputTokens ?? 0));
    expect(view.totals.outputTokens).toBe(sum((entry) => entry.usage?.outputTokens ?? 0));
    expect(view.totals.cacheReadTokens).toBe(sum((entry) => entry.usage?.cacheReadTokens ?? 0));
    expect(view.totals.costUsd).toBeCloseTo(sum((entry) => entry.costUsd ?? 0), 10);
    expect(view.totals.unpricedRequests).toBe(records.filter((entry) => entry.costUsd === null).length);
    expect(view.totals.failedRequests).toBe(records.filter((entry) => entry.status >= 400).length);
    expect(view.days.map((point) => point.date)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(view.days.reduce((total, point) => total + point.requests, 0)).toBe(records.length);
    expect(view.days.reduce((total, point) => total + point.savingsUsd, 0)).toBeCloseTo(view.savings.totalUsd, 10);
  });
});
