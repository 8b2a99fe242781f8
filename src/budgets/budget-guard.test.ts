import { describe, expect, it, vi } from 'vitest';
import { o200kLoaded } from '../classify/text/o200k.js';
import { budgetsConfigSchema } from '../config/budgets.js';
import type { RequestRecord } from '../core/ledger-record.js';
import { MemoryBudgetCounterStore } from '../store/memory/memory-budget-counter-store.js';
import { BudgetGuard } from './budget-guard.js';

const noon = Date.parse('2026-12-01T12:00:00Z');

/** A served request whose provider reported no usage: its budget charge is an estimate from the texts. */
function unreportedRecord(): RequestRecord {
  return {
    requestId: 'request-1',
    startedAt: noon,
    inboundFormat: 'openai-chat',
    endpoint: '/v1/chat/completions',
    requestedModel: 'gpt-test',
    status: 200,
    streaming: false,
    totalMs: 10,
    overheadMs: 1,
    usageEstimated: false,
    costUsd: null,
    decision: {},
    attempts: [],
    servedProvider: 'local',
    servedModel: 'gpt-test',
  };
}

describe('BudgetGuard.requestFinished', () => {
  it('estimates a missing usage without reading the tokenizer tables on the event loop, then charges it', async () => {
    // Vitest gives each file its own modules: the tables are not loaded yet in this one.
    expect(o200kLoaded()).toBe(false);
    const store = new MemoryBudgetCounterStore(() => noon);
    const guard = new BudgetGuard({ config: budgetsConfigSchema.parse({ gateway: { day: { tokens: 1_000_000 } } }), store, priceOf: () => 0, costOf: () => 0, now: () => noon });
    guard.requestFinished(unreportedRecord(), { requestText: 'How many tokens is this prompt?', responseText: 'A handful.' });
    // Returned before the tables were read (a synchronous estimate would have loaded them here).
    expect(o200kLoaded()).toBe(false);
    await vi.waitFor(async () => expect((await guard.status())[0]?.spent).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    expect(o200kLoaded()).toBe(true);
  });
});
