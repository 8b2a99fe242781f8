import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { bearer, call, openAiChat } from './security-client.js';

const providerKey = 'sk-provider-secret-ABCDEFGHIJKLMNOP';
const adminKey = 'admin-secret-QRSTUVWXYZ0123456789';
let upstream: FakeUpstream;
let gateway: ConfiguredGateway;
let dataDir: string;
let logText = '';

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-no-secrets-'));
  const config = parseConfig(
    {
      server: { port: 0 },
      providers: [{ id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: providerKey, models: ['gpt-test', 'big-test'] }],
      fallbacks: { 'gpt-test': ['big-test'] },
      ledger: { flush_interval_ms: 50 },
      logging: { level: 'debug' },
    },
    'test',
  );
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logText += chunk.toString();
      done();
    },
  });
  gateway = await runConfiguredGateway({ config, dataDir, env: { HERMES_ROUTER_ADMIN_KEY: adminKey }, logger: pino({ level: 'debug' }, sink) });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('secrets stay out of logs, the ledger, errors and /metrics', () => {
  it('after keys, failures that echo keys, and metrics scrapes, no secret appears anywhere the gateway writes', async () => {
    const created = await call(`${gateway.url}/v1/admin/keys`, { method: 'POST', headers: bearer(adminKey), json: { name: 'agent' } });
    const clientKey = (created.body as { key: string }).key;
    const answers: string[] = [];
    // Upstream rejects the provider key and quotes it back, then fails with a body that quotes the client's key.
    upstream.enqueue({ kind: 'error', status: 401, message: `Incorrect API key provided: ${providerKey}` });
    answers.push((await call(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(clientKey), json: openAiChat })).text);
    upstream.enqueue({ kind: 'error', status: 400, message: `bad request from Bearer ${clientKey}` });
    answers.push((await call(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(clientKey), json: { ...openAiChat, model: 'big-test' } })).text);
    answers.push((await call(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: bearer(`${clientKey}x`), json: openAiChat })).text);
    const metrics = await call(`${gateway.url}/metrics`, { headers: bearer(adminKey) });
    expect(metrics.status).toBe(200);
    // With keys required, /metrics is for the admin only.
    expect((await call(`${gateway.url}/metrics`, { headers: bearer(clientKey) })).status).toBe(403);
    await gateway.ledger.flush();
    const stored = readdirSync(dataDir)
      .filter((name) => !name.endsWith('-shm'))
      .map((name) => readFileSync(join(dataDir, name)).toString('latin1'))
      .join('\n');
    for (const [place, text] of Object.entries({ answers: answers.join('\n'), metrics: metrics.text, logs: logText, 'data dir': stored })) {
      for (const secret of [providerKey, adminKey, clientKey]) {
        expect(text.includes(secret), `${place} holds a secret ending ${secret.slice(-4)}`).toBe(false);
      }
    }
    expect(logText.length).toBeGreaterThan(0);
  });
});
