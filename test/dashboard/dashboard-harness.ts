import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseConfig } from '../../src/pipeline/load-config.js';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { prices } from '../insight/insight-fixture.js';

export const adminKey = 'dashboard-admin-key-for-tests';

export interface DashboardHarness {
  gateway: ConfiguredGateway;
  upstream: FakeUpstream;
  url: string;
  /** GET /dashboard/api/<view> as the admin. */
  api<T = Record<string, unknown>>(view: string, parameters?: Record<string, string>): Promise<T>;
  close(): Promise<void>;
}

/** The production assembly (`runConfiguredGateway`) over a ledger seeded with `records`, in front of a fake provider. */
export async function startDashboardHarness(records: readonly RequestRecord[]): Promise<DashboardHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-dashboard-'));
  const store = new SqliteLedgerStore({ path: join(dataDir, 'ledger.sqlite') });
  for (let start = 0; start < records.length; start += 5_000) await store.insertBatch(records.slice(start, start + 5_000));
  await store.close();
  const upstream = await startFakeUpstream();
  const config = parseConfig(
    {
      server: { port: 0 },
      providers: [
        {
          id: 'lab',
          kind: 'openai-compatible',
          base_url: `${upstream.url}/v1`,
          api_key: 'upstream-key',
          models: [
            { id: 'big', context_window: 1_000_000, prices: prices.big },
            { id: 'cheap', context_window: 100_000, prices: prices.cheap },
          ],
        },
      ],
      default_model: 'big',
      fallbacks: { big: ['cheap'] },
      logging: { level: 'silent' },
    },
    'dashboard test',
  );
  const gateway = await runConfiguredGateway({
    config,
    dataDir,
    env: { HERMES_ROUTER_ADMIN_KEY: adminKey },
    logger: pino({ level: 'silent' }),
  });
  return {
    gateway,
    upstream,
    url: gateway.url,
    async api<T>(view: string, parameters: Record<string, string> = {}): Promise<T> {
      const query = new URLSearchParams({ days: 'all', tz: '0', ...parameters });
      const response = await fetch(`${gateway.url}/dashboard/api/${view}?${query}`, { headers: { authorization: `Bearer ${adminKey}` } });
      if (!response.ok) throw new Error(`${view}: HTTP ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    async close() {
      await gateway.close();
      await upstream.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A varied seeded ledger: three days, 9 sessions plus session-less rows, both models, failures, failovers, tools. */
export function seededRecords(count: number, start = Date.UTC(2026, 10, 20, 6)): RequestRecord[] {
  const records: RequestRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    const served = index % 13 === 0 ? undefined : index % 3 === 0 ? 'big' : 'cheap';
    const failed = served === undefined;
    const input = 2_000 + (index % 50) * 1_500;
    const cacheRead = index % 2 === 0 ? Math.floor(input / 2) : 0;
    const output = 100 + (index % 23) * 20;
    const price = served === undefined ? undefined : prices[served];
    const record: RequestRecord = {
      requestId: `seed-${String(index).padStart(6, '0')}`,
      startedAt: start + Math.floor((index * 3 * 86_400_000) / count),
      inboundFormat: 'openai-chat',
      endpoint: '/v1/chat/completions',
      requestedModel: index % 4 === 0 ? 'big' : 'hermes-router',
      status: failed ? 502 : 200,
      streaming: true,
      totalMs: 50 + (index % 7) * 10,
      overheadMs: 1,
      usageEstimated: false,
      costUsd: price === undefined ? 0 : ((input - cacheRead) * price.input + cacheRead * price.cache_read + output * price.output) / 1e6,
      decision: {
        tools: { mode: 'on', outcome: index % 10 === 0 ? 'full' : 'narrowed', reason: 'seed', predictedToolsets: [], fullToolCount: 30, sentToolCount: 6, fullSchemaTokens: 16_000, sentSchemaTokens: index % 10 === 0 ? 16_000 : 3_000, recoveries: index % 17 === 0 ? 1 : 0 },
        models: { policy: 'seed', reason: 'seed', candidates: [] },
      },
      attempts: [{ provider: 'lab', model: served ?? 'big', keyId: 'k1', startedAt: start, durationMs: 40, status: failed ? 502 : 200 }],
    };
    if (index % 29 === 0 && !failed) {
      record.attempts.unshift({ provider: 'lab', model: 'big', keyId: 'k1', startedAt: start, durationMs: 5, status: 503, errorClass: 'upstream_server_error' });
    }
    if (index % 11 !== 5) record.sessionId = `session-${index % 9}`;
    if (served !== undefined) {
      record.servedProvider = 'lab';
      record.servedModel = served;
      record.usage = { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: 0, reasoningTokens: 0 };
    }
    records.push(record);
  }
  return records;
}
