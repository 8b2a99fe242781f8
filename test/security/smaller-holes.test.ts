import OpenAI from 'openai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { FileKeyStore } from '../../src/store/keys/file-key-store.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { defaultConfig } from '../support/gateway-harness.js';
import { openAiChat, rawCall } from './security-client.js';

/** Four smaller findings of the adversarial test, each with the request that showed it. */
let upstream: FakeUpstream;
let gateway: ConfiguredGateway;
let dataDir: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-holes-'));
  const config = parseConfig({ ...defaultConfig(upstream.url), server: { port: 0 }, ledger: { flush_interval_ms: 50 } }, 'test');
  gateway = await runConfiguredGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('route tables', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('/dashboard/api/%s is a plain 404, not an object method', async (name) => {
    const answer = await rawCall(`${gateway.url}/dashboard/api/${name}`, {});
    expect(answer.status).toBe(404);
    expect(answer.text).not.toMatch(/gateway|ledger|function/i);
  });
});

describe('the Origin check', () => {
  it('refuses a page on the same host name but another port', async () => {
    const { host } = new URL(gateway.url);
    const otherPort = `http://${host.replace(/:\d+$/, '')}:1`;
    const answer = await rawCall(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { host, origin: otherPort, 'content-type': 'application/json' },
      body: JSON.stringify(openAiChat),
    });
    expect(answer.status).toBe(403);
  });

  it('still accepts the gateway\'s own origin', async () => {
    const { host } = new URL(gateway.url);
    const answer = await rawCall(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { host, origin: gateway.url, 'content-type': 'application/json' },
      body: JSON.stringify(openAiChat),
    });
    expect(answer.status).toBe(200);
  });
});

describe('a truncated keys.json', () => {
  it('fails closed and names the file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keys-truncated-')), 'keys.json');
    writeFileSync(path, '{"version": 1, "keys": [{"id": "0123456789", "na');
    expect(() => new FileKeyStore(path)).toThrow(path);
  });
});

describe('a client that disconnects mid-stream', () => {
  it('is billed with estimated tokens for what the upstream produced, as a cut stream is', async () => {
    upstream.setScript({ respond: { kind: 'synthetic', chunkCount: 200, interChunkDelayMs: 10, omitUsage: true } });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ ...openAiChat, stream: true } as never, { signal: controller.signal });
    let received = 0;
    try {
      for await (const chunk of stream as unknown as AsyncIterable<{ choices: { delta: { content?: string } }[] }>) {
        received += chunk.choices[0]?.delta.content?.length ?? 0;
        if (received > 100) controller.abort();
      }
    } catch {
      // the abort
    }
    upstream.reset();
    // The row is written once the gateway has seen the client go and closed the upstream stream: wait for it (the
    // bound only ends a test that would otherwise hang), rather than for 300 ms a loaded machine may overrun.
    const clientClosedRows = async () => {
      await gateway.ledger.flush();
      const store = new SqliteLedgerStore({ path: join(dataDir, 'ledger.sqlite') });
      try {
        return (await store.requests({ limit: 1000 })).items.filter((row) => row.status === 499);
      } finally {
        await store.close();
      }
    };
    await expect.poll(async () => (await clientClosedRows()).length, { timeout: 15_000, interval: 50 }).toBeGreaterThan(0);
    const rows = await clientClosedRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.usageEstimated).toBe(true);
    expect(rows[0]?.usage?.outputTokens ?? 0).toBeGreaterThan(0);
    expect(rows[0]?.usage?.inputTokens ?? 0).toBeGreaterThan(0);
  });
});

describe('a keys.json damaged while the gateway runs', () => {
  it('refuses requests (503) without telling the client where the file is', async () => {
    const path = join(dataDir, 'keys.json');
    writeFileSync(path, '{"version": 1, "keys": [{"id": "01234');
    try {
      const answer = await rawCall(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(openAiChat),
      });
      expect(answer.status).toBe(503);
      expect(answer.text).toMatch(/key store/);
      expect(answer.text).not.toContain(dataDir);
    } finally {
      rmSync(path, { force: true });
    }
  });
});
