import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/pipeline/load-config.js';
import { startGateway } from '../../src/server/start-gateway.js';
import type { RunningGateway } from '../../src/server/start-gateway.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { bearer, call } from '../security/security-client.js';

/** Providers that change without a restart: the config file is rewritten and the gateway told to re-read it. */
const adminKey = 'reload-admin-key-0123456789abcdef';
let first: FakeUpstream;
let second: FakeUpstream;
let dir: string;
let running: RunningGateway;
const configPath = () => join(dir, 'hermes-router.yaml');

function writeConfig(baseUrl: string, key: string, extra = ''): void {
  writeFileSync(
    configPath(),
    [
      'server: {port: 0}',
      'providers:',
      `  - {id: local, kind: openai-compatible, base_url: "${baseUrl}", api_key: ${key}, models: [gpt-test, big-test]}`,
      'default_model: gpt-test',
      extra,
      '',
    ].join('\n'),
  );
}

const load = () => loadConfig({ configPath: configPath(), cwd: dir, dataDir: dir, env: {} }).config;
const reload = () => call(`${running.url}/v1/config/reload`, { method: 'POST', headers: bearer(adminKey) });

beforeAll(async () => {
  first = await startFakeUpstream();
  second = await startFakeUpstream();
  dir = mkdtempSync(join(tmpdir(), 'hermes-router-reload-'));
  writeConfig(`${first.url}/v1`, 'sk-first');
  running = await startGateway({ config: load(), dataDir: dir, env: { HERMES_ROUTER_ADMIN_KEY: adminKey }, logger: pino({ level: 'silent' }), configSource: load });
});
afterAll(async () => {
  await running.close();
  await first.close();
  await second.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  first.reset();
  second.reset();
  writeConfig(`${first.url}/v1`, 'sk-first');
  expect((await reload()).status).toBe(200);
  first.reset();
});

describe('config reload', () => {
  it('a new base URL and key under load: no request fails, in-flight streams finish on the old provider, the next ones use the new', async () => {
    // Streams of about 200 ms, so requests are mid-stream when the reload lands.
    const slow = { respond: { kind: 'synthetic', chunkCount: 20, interChunkDelayMs: 10 } } as const;
    first.setScript(slow);
    second.setScript(slow);
    const client = new OpenAI({ baseURL: `${running.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const outcomes: { ok: boolean; error?: string; startedAt: number; endedAt: number; text: string }[] = [];
    let reloadedAt = Number.POSITIVE_INFINITY;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const startedAt = performance.now();
        try {
          const stream = await client.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] });
          let text = '';
          for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
          outcomes.push({ ok: true, startedAt, endedAt: performance.now(), text });
        } catch (error) {
          outcomes.push({ ok: false, error: String(error), startedAt, endedAt: performance.now(), text: '' });
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    // Conditions, not fixed sleeps, so a loaded machine only makes it slower: some requests done and others
    // streaming before the reload, then eight started after it.
    const until = async (condition: () => boolean) => {
      const deadline = Date.now() + 20_000;
      while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await until(() => outcomes.length >= 8 && first.inFlightRequests() > 0);
    writeConfig(`${second.url}/v1`, 'sk-second');
    const answer = await reload();
    reloadedAt = performance.now();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reloaded: true, providers: ['local'], restart_required: [] });
    await until(() => outcomes.filter((outcome) => outcome.startedAt > reloadedAt).length >= 8);
    stop = true;
    await Promise.all(workers);

    const failed = outcomes.filter((outcome) => !outcome.ok);
    const straddling = outcomes.filter((outcome) => outcome.startedAt < reloadedAt && outcome.endedAt > reloadedAt);
    const after = outcomes.filter((outcome) => outcome.startedAt > reloadedAt);
    console.info(`reload under load: ${outcomes.length} streamed requests, ${failed.length} failed, ${straddling.length} in flight across the reload, ${after.length} started after it`);
    expect(failed).toEqual([]);
    expect(straddling.length).toBeGreaterThan(0);
    expect(straddling.every((outcome) => outcome.text.length > 0)).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    // Each upstream saw only its own key; everything after the reload went to the new one.
    expect(new Set(first.requests.map((request) => request.headers.authorization))).toEqual(new Set(['Bearer sk-first']));
    expect(new Set(second.requests.map((request) => request.headers.authorization))).toEqual(new Set(['Bearer sk-second']));
    expect(second.requests.length).toBeGreaterThanOrEqual(after.length);
    expect(first.requests.length + second.requests.length).toBe(outcomes.length);
  });

  it('a broken config is refused whole with its errors, and the running one keeps serving', async () => {
    const before = running.gateway.config;
    writeConfig('not a url', 'sk-second', 'fallbacks: {gpt-test: [no-such-model]}');
    const refused = await reload();
    expect(refused.status).toBe(400);
    const message = (refused.body as { error: { message: string } }).error.message;
    expect(message).toContain('providers[0].base_url');
    expect(message).toContain('The running config is unchanged');
    expect(running.gateway.config).toBe(before);
    const served = await call(`${running.url}/v1/chat/completions`, { method: 'POST', json: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] } });
    expect(served.status).toBe(200);
    expect(first.requests.at(-1)?.headers.authorization).toBe('Bearer sk-first');
    expect(second.requests).toHaveLength(0);
  });

  it('models, fallbacks and prices change for the next request; an application key cannot reload', async () => {
    writeConfig(`${first.url}/v1`, 'sk-first', 'fallbacks: {gpt-test: [big-test]}\nserver: {port: 0, body_limit_bytes: 1000}');
    // The duplicate `server` key is a YAML error: refused.
    expect((await reload()).status).toBe(400);
    writeConfig(`${first.url}/v1`, 'sk-first', 'fallbacks: {gpt-test: [big-test]}\nauth: {allowed_hosts: [router.internal]}');
    const answer = await reload();
    expect(answer.body).toMatchObject({ restart_required: ['auth'] });
    first.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
    const served = await call(`${running.url}/v1/chat/completions`, { method: 'POST', json: { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] } });
    expect(served.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect((await call(`${running.url}/v1/config/reload`, { method: 'POST' })).status).toBe(401);
  });
});
