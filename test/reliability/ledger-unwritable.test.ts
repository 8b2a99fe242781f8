import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createApplicationKey } from '../../src/security/create-key.js';
import { FileKeyStore } from '../../src/store/keys/file-key-store.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { LedgerStore } from '../../src/store/ledger-store.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { defaultConfig } from '../support/gateway-harness.js';
import { bearer, call, openAiChat } from '../security/security-client.js';

/**
 * A corrupted ledger (or a full disk) used to be invisible: /health said ok while rows piled up, and per-key
 * daily totals restarted at zero, so daily budgets opened up. Now /health is degraded and says why, keys with a
 * daily limit are refused (503) while today's totals are unknown, and the queue can refuse new work when full.
 */
const row = (index: number): RequestRecord => ({
  requestId: `r${index}`,
  startedAt: Date.now(),
  inboundFormat: 'openai-chat',
  endpoint: '/v1/chat/completions',
  requestedModel: 'gpt-test',
  status: 200,
  streaming: false,
  totalMs: 1,
  overheadMs: 0,
  usageEstimated: false,
  costUsd: 0,
  decision: {},
  attempts: [],
});

describe('a gateway whose ledger file is corrupted', () => {
  let upstream: FakeUpstream;
  let gateway: ConfiguredGateway;
  let dataDir: string;
  let limitedKey: string;
  let plainKey: string;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-corrupt-ledger-'));
    // A ledger with rows, then its last pages (the rows, not the schema) overwritten: it opens, but reading the
    // rows and writing new ones fail ("database disk image is malformed"), as after a disk error.
    const path = join(dataDir, 'ledger.sqlite');
    const store = new SqliteLedgerStore({ path });
    await store.insertBatch(Array.from({ length: 2_000 }, (_, index) => ({ ...row(index), clientKeyId: 'k' })));
    await store.close();
    const size = statSync(path).size;
    const handle = openSync(path, 'r+');
    const from = Math.floor(size / 4096 / 2) * 4096;
    writeSync(handle, Buffer.alloc(size - from, 0xa5), 0, size - from, from);
    closeSync(handle);
    const keys = new FileKeyStore(join(dataDir, 'keys.json'));
    limitedKey = (await createApplicationKey(keys, { name: 'budgeted', scopes: ['chat'], limits: { tokens_per_day: 1_000_000 } })).secret;
    plainKey = (await createApplicationKey(keys, { name: 'plain', scopes: ['chat'], limits: {} })).secret;
    const config = parseConfig({ ...defaultConfig(upstream.url), server: { port: 0 }, ledger: { flush_interval_ms: 50 } }, 'test');
    gateway = await runConfiguredGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a key with a daily limit (its totals are unknown) and serves a key without one', async () => {
    const limited = await call(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(limitedKey), json: openAiChat });
    expect(limited.status).toBe(503);
    expect(limited.text).toMatch(/daily totals/);
    const plain = await call(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(plainKey), json: openAiChat });
    expect(plain.status).toBe(200);
  });

  it('reports degraded health naming the ledger and the key limits', async () => {
    await call(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(plainKey), json: openAiChat });
    await gateway.ledger.flush();
    const health = (await call(`${gateway.url}/health`)).body as { status: string; checks?: Record<string, string> };
    expect(health.status).toBe('degraded');
    expect(health.checks?.ledger).toMatch(/writes failing/);
    expect(health.checks?.key_limits).toMatch(/daily totals/);
  });
});

describe('a ledger queue that is full while the store fails', () => {
  const failingStore = {
    insertBatch: async () => {
      throw new Error('ENOSPC: no space left on device');
    },
    close: async () => {},
  } as unknown as LedgerStore;

  it('with when_full: refuse, refuses new work once the queue is full, and says so', async () => {
    const ledger = new Ledger({ store: failingStore, config: { max_queued_records: 100, when_full: 'refuse' } });
    for (let index = 0; index < 99; index += 1) ledger.record(row(index));
    await ledger.flush();
    expect(ledger.refusal()).toBeUndefined();
    ledger.record(row(100));
    await ledger.flush();
    expect(ledger.refusal()).toMatch(/ledger/);
    expect(ledger.health()).toMatch(/ENOSPC/);
    await ledger.close();
  });

  it('by default (drop_oldest) never refuses, but its health says rows are being dropped', async () => {
    const ledger = new Ledger({ store: failingStore, config: { max_queued_records: 100 } });
    for (let index = 0; index < 150; index += 1) ledger.record(row(index));
    await ledger.flush();
    expect(ledger.refusal()).toBeUndefined();
    expect(ledger.health()).toMatch(/50 dropped/);
    await ledger.close();
  });
});
