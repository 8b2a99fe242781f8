import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/ledger-record.js';
import type { ToolRoutingDecision } from '../core/route-decision.js';
import { MemoryLedgerStore } from '../store/memory/memory-ledger-store.js';
import { summarizeRouting } from './routing-summary.js';

function record(index: number, tools: ToolRoutingDecision | undefined, attempts = 1): RequestRecord {
  return {
    requestId: `r${index}`,
    startedAt: 1_700_000_000_000 + index,
    inboundFormat: 'openai-chat',
    endpoint: '/v1/chat/completions',
    requestedModel: 'm',
    servedProvider: 'p',
    servedModel: index % 2 === 0 ? 'a' : 'b',
    status: 200,
    streaming: false,
    totalMs: 1,
    overheadMs: 0,
    usageEstimated: false,
    costUsd: null,
    decision: { ...(tools ? { tools } : {}), models: { policy: 'explicit', reason: 'x', candidates: [] } },
    attempts: Array.from({ length: attempts }, () => ({ provider: 'p', model: 'a', keyId: 'p#1', startedAt: 0, durationMs: 1, status: 200 })),
  };
}

describe('summarizeRouting', () => {
  it('folds tool and model decisions across pages', async () => {
    const store = new MemoryLedgerStore();
    const records: RequestRecord[] = [];
    for (let index = 0; index < 2_500; index += 1) {
      const narrowed = index % 5 !== 0;
      records.push(
        record(
          index,
          {
            mode: 'on',
            outcome: narrowed ? (index % 3 === 0 ? 'sticky' : 'narrowed') : 'full',
            reason: narrowed ? 'classified' : 'abstain',
            predictedToolsets: narrowed ? ['terminal', 'file'] : [],
            fullToolCount: 33,
            sentToolCount: narrowed ? 8 : 33,
            fullSchemaTokens: 16_000,
            sentSchemaTokens: narrowed ? 4_000 : 16_000,
            ...(index % 50 === 0 ? { recoveries: 1 } : {}),
          },
          index % 10 === 0 ? 2 : 1,
        ),
      );
    }
    records.push(record(9_999, undefined));
    await store.insertBatch(records);
    const { tools, models } = await summarizeRouting(store, {});
    const narrowedCount = records.filter((item) => item.decision.tools && item.decision.tools.outcome !== 'full').length;
    expect(tools.requests).toBe(2_501);
    expect(tools.withTools).toBe(2_500);
    expect(tools.toolsets.terminal).toBe(narrowedCount);
    expect(tools.fullSchemaTokens).toBe(2_500 * 16_000);
    expect(tools.sentSchemaTokens).toBe(narrowedCount * 4_000 + (2_500 - narrowedCount) * 16_000);
    expect(tools.recoveries).toBe(50);
    // 250 requests took two attempts; the 50 of them with a request_toolset recovery re-issued, they did not fail over.
    expect(models.failovers).toBe(200);
    expect(models.byServedModel['p/a']).toBe(records.filter((item) => item.servedModel === 'a').length);
  });
});
