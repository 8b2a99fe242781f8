import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { RequestRecord } from '../core/ledger-record.js';
import type { RequestObserver } from '../pipeline/request-observer.js';
import type { LedgerStore } from '../store/ledger-store.js';
import { makeRequestRecord } from '../store/ledger-store.fixtures.js';
import { MemoryLedgerStore } from '../store/memory/memory-ledger-store.js';
import { SqliteLedgerStore } from '../store/sqlite/sqlite-ledger-store.js';
import { Ledger } from './ledger.js';
import type { LedgerLogger } from './ledger-logger.js';
import { GatewayMetrics } from './metrics.js';
import { openLedger } from './open-ledger.js';
import { priceUsage } from '../catalog/prices/price-usage.js';

const directory = mkdtempSync(join(tmpdir(), 'hermes-ledger-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function recordingLogger(): LedgerLogger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    info: (_details, message) => lines.push({ level: 'info', message }),
    warn: (_details, message) => lines.push({ level: 'warn', message }),
    error: (_details, message) => lines.push({ level: 'error', message }),
  };
}

/** A store that fails its next `failures` writes, then delegates. */
class FlakyStore extends MemoryLedgerStore {
  constructor(public failures: number) {
    super();
  }
  override async insertBatch(records: readonly RequestRecord[]): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('disk on fire');
    }
    return super.insertBatch(records);
  }
}

async function allRows(store: LedgerStore): Promise<RequestRecord[]> {
  return (await store.requests({ limit: 1000 })).items;
}

describe('Ledger', () => {
  it('accepts a record without touching the store, then prices and writes it on flush', async () => {
    const store = new MemoryLedgerStore();
    const insert = vi.spyOn(store, 'insertBatch');
    const ledger = new Ledger({ store });
    const record = makeRequestRecord({ requestId: 'a', costUsd: null });
    ledger.record(record);
    expect(insert).not.toHaveBeenCalled();
    await ledger.flush();
    const [stored] = await allRows(store);
    const expected = priceUsage('openai', 'gpt-4o', record.usage);
    expect(expected.costUsd).not.toBeNull();
    expect(stored?.costUsd).toBeCloseTo(expected.costUsd ?? Number.NaN, 12);
    expect(record.costUsd).toBeNull(); // the caller's object is not modified
    await ledger.close();
  });

  it('keeps a cost the caller passes as a number, and does not bill a failed request', async () => {
    const store = new MemoryLedgerStore();
    const ledger = new Ledger({ store });
    ledger.record(makeRequestRecord({ requestId: 'reported', costUsd: 0.125 }));
    const failed = makeRequestRecord({ requestId: 'failed', status: 503, errorClass: 'unavailable', costUsd: null });
    delete failed.usage;
    delete failed.servedModel;
    delete failed.servedProvider;
    ledger.record(failed);
    await ledger.close();
    const rows = new Map((await allRows(store)).map((row) => [row.requestId, row]));
    expect(rows.get('reported')?.costUsd).toBe(0.125);
    expect(rows.get('failed')?.costUsd).toBe(0);
  });

  it('records an unknown model as unpriced and warns once', async () => {
    const store = new MemoryLedgerStore();
    const logger = recordingLogger();
    const ledger = new Ledger({ store, logger });
    for (const requestId of ['u1', 'u2']) {
      ledger.record(makeRequestRecord({ requestId, servedModel: 'gpt-imaginary', costUsd: null, attempts: [] }));
    }
    await ledger.close();
    expect((await allRows(store)).map((row) => row.costUsd)).toEqual([null, null]);
    expect(logger.lines.filter((line) => line.message.includes('no price'))).toHaveLength(1);
  });

  it('prices with config overrides and provider kinds', async () => {
    const store = new MemoryLedgerStore();
    const ledger = new Ledger({
      store,
      config: { prices: { 'private-model': { input: 2, output: 4 } } },
      providerKinds: { 'team-claude': 'anthropic' },
    });
    ledger.record(
      makeRequestRecord({
        requestId: 'override',
        servedProvider: 'box',
        servedModel: 'private-model',
        usage: { inputTokens: 1_000_000, outputTokens: 500_000, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
        costUsd: null,
        attempts: [],
      }),
    );
    const claudeUsage = { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
    ledger.record(
      makeRequestRecord({
        requestId: 'kind',
        servedProvider: 'team-claude',
        servedModel: 'sonnet',
        usage: claudeUsage,
        costUsd: null,
        attempts: [
          { provider: 'team-claude', model: 'claude-sonnet-4-5', keyId: 'k', startedAt: 0, durationMs: 1, status: 200 },
        ],
      }),
    );
    await ledger.close();
    const rows = new Map((await allRows(store)).map((row) => [row.requestId, row]));
    expect(rows.get('override')?.costUsd).toBeCloseTo(2 + 2, 12);
    expect(rows.get('kind')?.costUsd).toBeCloseTo(
      priceUsage('anthropic', 'claude-sonnet-4-5', claudeUsage).costUsd ?? Number.NaN,
      12,
    );
  });

  it('prices a model under its upstream name when config renames it', async () => {
    const store = new MemoryLedgerStore();
    const ledger = new Ledger({
      store,
      providerKinds: { 'team-claude': 'anthropic' },
      upstreamModels: { 'team-claude/sonnet': 'claude-sonnet-4-5-20250929' },
    });
    const claudeUsage = { inputTokens: 5000, outputTokens: 300, cacheReadTokens: 1000, cacheWriteTokens: 0, reasoningTokens: 0 };
    ledger.record(
      makeRequestRecord({
        requestId: 'renamed',
        servedProvider: 'team-claude',
        servedModel: 'sonnet',
        usage: claudeUsage,
        costUsd: null,
        attempts: [{ provider: 'team-claude', model: 'sonnet', keyId: 'k', startedAt: 0, durationMs: 1, status: 200 }],
      }),
    );
    await ledger.close();
    const expected = priceUsage('anthropic', 'claude-sonnet-4-5', claudeUsage).costUsd;
    expect(expected).not.toBeNull();
    expect((await allRows(store))[0]?.costUsd).toBeCloseTo(expected ?? Number.NaN, 12);
  });

  it('estimates missing usage from the side text and never stores that text by default', async () => {
    const store = new MemoryLedgerStore();
    const ledger = new Ledger({ store });
    const record = makeRequestRecord({ requestId: 'estimated', costUsd: null, content: { request: 'secret' } });
    delete record.usage;
    const estimateFrom = { requestText: 'What is the capital of France? '.repeat(20), responseText: 'Paris.' };
    ledger.record(record, estimateFrom);
    await ledger.close();
    const [stored] = await allRows(store);
    expect(stored?.usageEstimated).toBe(true);
    expect(stored?.usage).toEqual({
      inputTokens: countTokens(estimateFrom.requestText),
      outputTokens: countTokens(estimateFrom.responseText),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
    expect(stored?.costUsd).toBeGreaterThan(0);
    expect(stored).not.toHaveProperty('content');
  });

  it('stores content, the side text included, only with store_content', async () => {
    const store = new MemoryLedgerStore();
    const ledger = new Ledger({ store, config: { store_content: true } });
    const record = makeRequestRecord({ requestId: 'kept' });
    delete record.usage;
    ledger.record(record, { requestText: 'hello', responseText: 'hi' });
    await ledger.close();
    expect((await allRows(store))[0]?.content).toEqual({ request: 'hello', response: 'hi' });
  });

  it('writes on its own every flush interval', async () => {
    const store = new MemoryLedgerStore();
    const ledger = new Ledger({ store, config: { flush_interval_ms: 20 } });
    ledger.record(makeRequestRecord({ requestId: 'timed' }));
    await vi.waitFor(async () => expect((await store.totals()).requests).toBe(1), { timeout: 5000, interval: 10 });
    await ledger.close();
  });

  it('never throws from record, even on a record it cannot read', async () => {
    const store = new MemoryLedgerStore();
    const logger = recordingLogger();
    const ledger = new Ledger({ store, logger });
    const hostile = makeRequestRecord({ requestId: 'hostile' });
    Object.defineProperty(hostile, 'usage', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(() => ledger.record(hostile)).not.toThrow();
    await ledger.close();
    expect(logger.lines.some((line) => line.level === 'error')).toBe(true);
  });

  it('keeps rows through store failures and writes each exactly once after recovery', async () => {
    const store = new FlakyStore(3);
    const logger = recordingLogger();
    const metrics = new GatewayMetrics();
    const ledger = new Ledger({ store, logger, metrics });
    for (let index = 0; index < 30; index += 1) ledger.record(makeRequestRecord({ requestId: `r${index}` }));
    await ledger.flush();
    await ledger.flush();
    expect(ledger.backlog).toBe(30);
    expect((await store.totals()).requests).toBe(0);
    for (let index = 30; index < 40; index += 1) ledger.record(makeRequestRecord({ requestId: `r${index}` }));
    await ledger.flush(); // third failure
    await ledger.flush(); // recovered
    expect(ledger.backlog).toBe(0);
    expect((await store.totals()).requests).toBe(40);
    expect(logger.lines.map((line) => line.level)).toContain('error');
    expect(logger.lines.some((line) => line.message.includes('recovered'))).toBe(true);
    expect(await metrics.registry.getSingleMetricAsString('hermes_router_ledger_flush_failures_total')).toMatch(/ 3$/m);
    await ledger.close();
  });

  it('bounds the queue while the store is down, dropping the oldest rows', async () => {
    const store = new FlakyStore(Number.POSITIVE_INFINITY);
    const metrics = new GatewayMetrics();
    const ledger = new Ledger({ store, metrics, config: { max_queued_records: 100 } });
    for (let index = 0; index < 150; index += 1) {
      ledger.record(makeRequestRecord({ requestId: `r${String(index).padStart(3, '0')}` }));
    }
    await ledger.flush();
    expect(ledger.backlog).toBe(100);
    expect(await metrics.registry.getSingleMetricAsString('hermes_router_ledger_dropped_total')).toMatch(/ 50$/m);
    store.failures = 0;
    await ledger.close();
    const ids = (await allRows(store)).map((row) => row.requestId).sort();
    expect(ids[0]).toBe('r050');
    expect(ids).toHaveLength(100);
  });

  it('splits a long queue into transactions of max_batch_size', async () => {
    const store = new MemoryLedgerStore();
    const insert = vi.spyOn(store, 'insertBatch');
    const ledger = new Ledger({ store, config: { max_batch_size: 40 } });
    for (let index = 0; index < 100; index += 1) ledger.record(makeRequestRecord({ requestId: `b${index}` }));
    await ledger.close();
    expect(insert.mock.calls.map(([batch]) => batch.length)).toEqual([40, 40, 20]);
  });

  it('flushes on close into a real SQLite file that a new process-like reopen can read', async () => {
    const ledger = openLedger({ dataDir: directory });
    const records = Array.from({ length: 25 }, (_, index) => makeRequestRecord({ requestId: `c${index}`, startedAt: 1_000 + index }));
    for (const record of records) ledger.record(record);
    await ledger.close();
    const reopened = new SqliteLedgerStore({ path: join(directory, 'ledger.sqlite') });
    expect((await reopened.totals()).requests).toBe(25);
    await reopened.close();
  });

  it('is a request observer the server can register, counting requests in flight', async () => {
    const metrics = new GatewayMetrics();
    const ledger = new Ledger({ store: new MemoryLedgerStore(), metrics });
    const observer: RequestObserver = ledger;
    observer.requestStarted();
    observer.requestStarted();
    observer.requestFinished(makeRequestRecord({ requestId: 'observed' }));
    expect(await metrics.registry.getSingleMetricAsString('hermes_router_in_flight_requests')).toMatch(/ 1$/m);
    await ledger.close();
  });

  it('drops records that arrive after close, with a warning', async () => {
    const store = new MemoryLedgerStore();
    const logger = recordingLogger();
    const ledger = new Ledger({ store, logger });
    await ledger.close();
    ledger.record(makeRequestRecord({ requestId: 'late' }));
    await ledger.flush();
    expect((await store.totals()).requests).toBe(0);
    expect(logger.lines.some((line) => line.level === 'warn')).toBe(true);
  });
});
