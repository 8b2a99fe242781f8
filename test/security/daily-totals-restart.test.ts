import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { makeRequestRecord } from '../../src/store/ledger-store.fixtures.js';
import { MemoryLedgerStore } from '../../src/store/memory/memory-ledger-store.js';
import { createApplicationKey } from '../../src/security/create-key.js';
import { dailyTotalsFromLedger } from '../../src/security/daily-totals-from-ledger.js';
import { FileKeyStore, keyFilePath } from '../../src/store/keys/file-key-store.js';
import { KeyLimiter } from '../../src/security/key-limiter.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { defaultConfig } from '../support/gateway-harness.js';

describe('dailyTotalsFromLedger', () => {
  const noon = Date.UTC(2026, 10, 30, 12, 0, 0);
  const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });

  it("starts each key's day from today's (UTC) rows only: tokens are input + output, cost the ledger's", async () => {
    const ledger = new MemoryLedgerStore();
    await ledger.insertBatch([
      makeRequestRecord({ requestId: 'today-1', clientKeyId: 'key-a', startedAt: noon - 60_000, usage: usage(100, 20), costUsd: 0.25 }),
      makeRequestRecord({ requestId: 'today-2', clientKeyId: 'key-a', startedAt: Date.UTC(2026, 10, 30), usage: usage(5, 5), costUsd: null }),
      makeRequestRecord({ requestId: 'yesterday', clientKeyId: 'key-a', startedAt: Date.UTC(2026, 10, 30) - 1, usage: usage(1_000, 1_000), costUsd: 9 }),
      makeRequestRecord({ requestId: 'other-key', clientKeyId: 'key-b', startedAt: noon - 1, usage: usage(7, 0), costUsd: 0.01 }),
    ]);
    const now = () => noon;
    const limiter = new KeyLimiter({ counters: await dailyTotalsFromLedger(ledger, { now }), now });
    expect(await limiter.today('key-a')).toEqual({ tokens: 130, costUsd: 0.25 });
    expect(await limiter.today('key-b')).toEqual({ tokens: 7, costUsd: 0.01 });
    expect((await limiter.admit('key-a', { tokens_per_day: 130 })).exceeded).toBe('tokens_per_day');
    expect((await limiter.admit('key-a', { tokens_per_day: 131 })).exceeded).toBeUndefined();
  });

  it('a ledger that cannot be read keeps daily limits closed for that day (not zero), and says so', async () => {
    const warnings: string[] = [];
    const broken = { clientKeys: () => Promise.reject(new Error('disk gone')) };
    let now = noon;
    const counters = await dailyTotalsFromLedger(broken, { now: () => now, logger: { warn: (_details, message) => warnings.push(message) } });
    const limiter = new KeyLimiter({ counters, now: () => now });
    const daily = await limiter.admit('key-a', { tokens_per_day: 1_000 });
    expect(daily.unknownTotals).toMatch(/disk gone/);
    expect(daily.exceeded).toBeUndefined();
    // A key without a daily limit is not affected.
    expect(await limiter.admit('key-b', { requests_per_minute: 10 })).toEqual({ retryAfterMs: 0 });
    expect(warnings).toHaveLength(1);
    // The next UTC day was counted whole in memory: its limits work again.
    now = noon + 24 * 60 * 60 * 1000;
    expect((await limiter.admit('key-a', { tokens_per_day: 1_000 })).unknownTotals).toBeUndefined();
  });
});

describe('a single instance keeps a key\'s daily token budget across a restart', () => {
  let upstream: FakeUpstream;
  let dataDir: string;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-daily-'));
  });
  afterAll(async () => {
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () =>
    runConfiguredGateway({
      config: parseConfig({ ...defaultConfig(upstream.url), server: { port: 0 }, ledger: { flush_interval_ms: 50 } }, 'test'),
      dataDir,
      env: { HERMES_ROUTER_ADMIN_KEY: 'daily-totals-admin-key-0123456789' },
      logger: pino({ level: 'silent' }),
    });
  const chat = (url: string, secret: string) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] }),
    });

  it('spends the budget, restarts on the same data directory, and the next request gets 429', async () => {
    const { key, secret } = await createApplicationKey(new FileKeyStore(keyFilePath(dataDir)), { name: 'budgeted', scopes: ['chat'], limits: { tokens_per_day: 10 } });
    const first = await start();
    try {
      const spent = await chat(first.url, secret);
      expect(spent.status).toBe(200);
      const body = (await spent.json()) as { usage?: { total_tokens?: number } };
      expect(body.usage?.total_tokens ?? 0).toBeGreaterThan(10);
      // The usage is added once the request finished recording itself, a moment after the client's last byte.
      for (let waited = 0; (await first.security.limiter.today(key.id)).tokens <= 10; waited += 10) {
        if (waited > 15_000) throw new Error('the usage was never counted');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await chat(first.url, secret)).status).toBe(429);
    } finally {
      await first.close();
    }
    const second = await start();
    try {
      const refused = await chat(second.url, secret);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()) as unknown).toMatchObject({ error: { message: expect.stringMatching(/tokens per day/) } });
    } finally {
      await second.close();
    }
  });
});
