import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { InsightModels } from '../../src/insight/insight-models.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';

/** USD per million tokens; flat, so sums over groups equal sums over requests. */
export const prices = {
  big: { input: 10, output: 30, cache_read: 1, cache_write: 12.5 },
  cheap: { input: 1, output: 2, cache_read: 0.1, cache_write: 1.25 },
} as const;

export function testModels(): InsightModels {
  return new InsightModels({
    deployments: [
      { providerId: 'lab', providerKind: 'openai-compatible', modelId: 'big', upstreamModel: 'big', contextWindow: 1_000_000, prices: prices.big },
      { providerId: 'lab', providerKind: 'openai-compatible', modelId: 'cheap', upstreamModel: 'cheap', contextWindow: 100_000, prices: prices.cheap },
      { providerId: 'lab', providerKind: 'openai-compatible', modelId: 'mystery', upstreamModel: 'mystery' },
    ],
    defaultModel: 'big',
  });
}

export interface RecordSpec {
  id: string;
  at: number;
  session?: string;
  requested: string;
  served?: string;
  status?: number;
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  cost?: number | null;
  full?: number;
  sent?: number;
  toolMode?: 'on' | 'shadow' | 'off';
  attempts?: number;
  recoveries?: number;
}

/** A ledger row; cost defaults to the flat-price arithmetic written out here, independently of the code under test. */
export function record(spec: RecordSpec): RequestRecord {
  const served = spec.served;
  const status = spec.status ?? 200;
  const input = spec.input ?? 0;
  const output = spec.output ?? 0;
  const cacheRead = spec.cacheRead ?? 0;
  const cacheWrite = spec.cacheWrite ?? 0;
  const price = served === 'big' || served === 'cheap' ? prices[served] : undefined;
  const computed =
    price === undefined
      ? null
      : ((input - cacheRead - cacheWrite) * price.input + cacheRead * price.cache_read + cacheWrite * price.cache_write + output * price.output) / 1e6;
  const attempts = Array.from({ length: spec.attempts ?? 1 }, (_, index) => ({
    provider: 'lab',
    model: served ?? spec.requested,
    keyId: 'lab-key-1',
    startedAt: spec.at,
    durationMs: 10,
    status: index === (spec.attempts ?? 1) - 1 ? status : 503,
  }));
  const result: RequestRecord = {
    requestId: spec.id,
    startedAt: spec.at,
    inboundFormat: 'openai-chat',
    endpoint: '/v1/chat/completions',
    requestedModel: spec.requested,
    status,
    streaming: true,
    totalMs: 100,
    overheadMs: 1,
    usageEstimated: false,
    costUsd: spec.cost === undefined ? computed : spec.cost,
    decision: {},
    attempts,
  };
  if (spec.session !== undefined) result.sessionId = spec.session;
  if (served !== undefined) {
    result.servedProvider = 'lab';
    result.servedModel = served;
  }
  if (spec.input !== undefined) {
    result.usage = { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite, reasoningTokens: 0 };
  }
  if (spec.full !== undefined) {
    result.decision.tools = {
      mode: spec.toolMode ?? 'on',
      outcome: 'narrowed',
      reason: 'test',
      predictedToolsets: [],
      fullToolCount: 30,
      sentToolCount: 5,
      fullSchemaTokens: spec.full,
      sentSchemaTokens: spec.sent ?? spec.full,
      ...(spec.recoveries === undefined ? {} : { recoveries: spec.recoveries }),
    };
  }
  return result;
}

export async function ledgerFile(records: readonly RequestRecord[]): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'insight-')), 'ledger.sqlite');
  const store = new SqliteLedgerStore({ path });
  await store.insertBatch(records);
  await store.close();
  return path;
}

/** A config naming the fixture's two priced models, for the report commands (they price rows from the config). */
export const pricedModelsConfig = `providers:
  - id: lab
    kind: openai-compatible
    base_url: http://127.0.0.1:9/v1
    models:
      - {id: big, context_window: 1000000, prices: {input: 10, output: 30, cache_read: 1, cache_write: 12.5}}
      - {id: cheap, context_window: 100000, prices: {input: 1, output: 2, cache_read: 0.1, cache_write: 1.25}}
default_model: big
`;
