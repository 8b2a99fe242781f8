import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseConfig } from '../../src/pipeline/load-config.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import type { RequestObserver } from '../../src/pipeline/request-observer.js';
import { startGateway } from '../../src/server/start-gateway.js';
import type { RunningGateway, StartGatewayOptions } from '../../src/server/start-gateway.js';
import { startFakeUpstream } from './fake-upstream/index.js';
import type { FakeUpstream, ReceivedRequest, StartFakeUpstreamOptions } from './fake-upstream/index.js';

/** Collects finished requests the way the ledger would see them. */
export class RecordingObserver implements RequestObserver {
  readonly records: RequestRecord[] = [];
  started = 0;
  private waiters: (() => void)[] = [];

  requestStarted(): void {
    this.started += 1;
  }

  requestFinished(record: RequestRecord): void {
    this.records.push(structuredClone(record));
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /**
   * Resolves once `count` records have arrived and every request that started has its record (records land after
   * the response ends: the first count of a tools array's schema tokens yields to the event loop, so its record
   * comes a few turns later; `waitFor(records.length)` waits for it). Throws at the deadline when either is
   * missing: a request that started and never recorded itself is a lost ledger row, not something to read past.
   */
  async waitFor(count: number, timeoutMs = 5_000): Promise<RequestRecord[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.records.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} ledger records, got ${this.records.length}`);
      await this.#nextRecordOrTick();
    }
    while (this.records.length < this.started) {
      if (Date.now() > deadline) {
        throw new Error(`${this.started} requests started but ${this.records.length} recorded within ${timeoutMs} ms: ${this.started - this.records.length} never finished`);
      }
      await this.#nextRecordOrTick();
    }
    return this.records;
  }

  #nextRecordOrTick(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      setTimeout(resolve, 50);
    });
  }
}

export interface Harness {
  upstream: FakeUpstream;
  gateway: RunningGateway;
  observer: RecordingObserver;
  /** OpenAI base URL of the gateway (ends in /v1). */
  openAiBaseUrl: string;
  /** Anthropic base URL of the gateway. */
  anthropicBaseUrl: string;
  close(): Promise<void>;
}

/**
 * A gateway in front of one fake upstream that serves both APIs: provider `local` (OpenAI-compatible) and
 * provider `claude` (Anthropic). `configure` may add or change anything in the config.
 */
export async function startHarness(
  configure: (upstreamUrl: string) => ConfigInput = (upstreamUrl) => defaultConfig(upstreamUrl),
  extra: Partial<StartGatewayOptions> = {},
  /** E.g. a `promptCache` so the fake bills cache reads and writes like the real providers. */
  upstreamOptions: StartFakeUpstreamOptions = {},
): Promise<Harness> {
  const upstream = await startFakeUpstream(upstreamOptions);
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-test-'));
  const input = configure(upstream.url);
  const config = parseConfig({ ...input, server: { port: 0, ...(input.server ?? {}) } }, 'test');
  const observer = new RecordingObserver();
  const gateway = await startGateway({
    config,
    dataDir,
    env: {},
    logger: pino({ level: 'silent' }),
    observers: [observer, ...(extra.observers ?? [])],
    ...extra,
  });
  return {
    upstream,
    gateway,
    observer,
    openAiBaseUrl: `${gateway.url}/v1`,
    anthropicBaseUrl: gateway.url,
    async close() {
      await gateway.close();
      await upstream.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function defaultConfig(upstreamUrl: string): ConfigInput {
  return {
    providers: [
      {
        id: 'local',
        kind: 'openai-compatible',
        base_url: `${upstreamUrl}/v1`,
        api_keys: ['sk-local-a', 'sk-local-b'],
        models: ['gpt-test', { id: 'big-test', context_window: 200_000 }],
      },
      {
        id: 'claude',
        kind: 'anthropic',
        base_url: upstreamUrl,
        api_key: 'sk-ant-test',
        models: ['claude-test'],
      },
    ],
    default_model: 'gpt-test',
    fallbacks: { 'gpt-test': ['big-test'] },
    resilience: { cooldown_ms: 1_000, retry_after_cap_ms: 500 },
    timeouts: { connect_ms: 2_000, first_byte_ms: 3_000, idle_ms: 1_500 },
  };
}

/** The last request the fake upstream received; throws when it received none, so a test never reads undefined. */
export function lastUpstreamRequest(harness: Pick<Harness, 'upstream'>): ReceivedRequest {
  const request = harness.upstream.requests.at(-1);
  if (!request) throw new Error('the upstream received nothing');
  return request;
}
