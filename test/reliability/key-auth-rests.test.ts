import OpenAI from 'openai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream, ReceivedRequest } from '../support/fake-upstream/index.js';
import { defaultConfig } from '../support/gateway-harness.js';

/**
 * A 401/403 used to disable the key for every model of the provider, fallbacks included, until a restart.
 * Now: a 401 rests the key (all its models) with a growing backoff and the key is tried again after it; a 403
 * rests the key on that model only; the log and /metrics name the key by its last 4 and say why.
 */
const authRestMs = 1_500;
/** The rests' clock: stepped past a rest instead of waiting for it, so a loaded machine cannot end a rest early or late. */
let clockMs = Date.now();
const clock = () => clockMs;
let upstream: FakeUpstream;
let gateway: ConfiguredGateway;
let dataDir: string;
let client: OpenAI;
const logLines: string[] = [];

function keyOf(request: ReceivedRequest): string {
  return String(request.headers.authorization ?? '').replace(/^Bearer /, '');
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-auth-'));
  const base = defaultConfig(upstream.url);
  const config = parseConfig(
    {
      ...base,
      server: { port: 0 },
      // gpt-test falls back to big-test, both on provider `local` with keys sk-local-a and sk-local-b.
      fallbacks: { 'gpt-test': ['big-test'] },
      resilience: { ...base.resilience, auth_rest_ms: authRestMs, auth_rest_max_ms: authRestMs * 4 },
    },
    'test',
  );
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    }),
  );
  gateway = await runConfiguredGateway({ config, dataDir, env: {}, logger, authRestClock: clock });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'x', maxRetries: 0 });
});
afterEach(() => {
  upstream.reset();
  gateway.gateway.liftAuthRests();
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ask = (model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
const stepClock = (milliseconds: number) => {
  clockMs += milliseconds;
};

describe('a 403 about one model', () => {
  it('rests the keys on that model only: the fallback and the other model keep both keys, and the model comes back', async () => {
    let denied = true;
    upstream.setScript({
      respond: (request) =>
        request.model === 'gpt-test' && denied
          ? { kind: 'error', status: 403, message: 'You do not have access to the model gpt-test.' }
          : { kind: 'synthetic', text: 'ok' },
    });
    const first = await ask('gpt-test');
    expect(first.model).toBe('big-test');

    // big-test asked directly, twice: both keys still serve it (round robin), no failed attempt.
    const before = upstream.requests.length;
    await ask('big-test');
    await ask('big-test');
    const direct = upstream.requests.slice(before);
    expect(direct.map((request) => request.model)).toEqual(['big-test', 'big-test']);
    expect(new Set(direct.map(keyOf))).toEqual(new Set(['sk-local-a', 'sk-local-b']));

    // While resting, gpt-test is not asked at all.
    const resting = upstream.requests.length;
    expect((await ask('gpt-test')).model).toBe('big-test');
    expect(upstream.requests.slice(resting).some((request) => request.model === 'gpt-test')).toBe(false);

    // After the rest the key is tried again on gpt-test, and once the upstream allows it, serves it.
    denied = false;
    stepClock(authRestMs + 100);
    expect((await ask('gpt-test')).model).toBe('gpt-test');
  });
});

describe('a 401 for one key', () => {
  it('rests that key for every model, uses the other, re-probes it after the rest, and says which key and why', async () => {
    let rejectA = true;
    upstream.setScript({
      respond: (request) =>
        keyOf(request) === 'sk-local-a' && rejectA
          ? { kind: 'error', status: 401, message: 'Incorrect API key provided.' }
          : { kind: 'synthetic', text: 'ok' },
    });
    // Round robin: within four requests key a is tried, fails, and key b serves; afterwards only b is used.
    for (let index = 0; index < 4; index += 1) expect((await ask('gpt-test')).model).toBe('gpt-test');
    const triedWithA = upstream.requests.filter((request) => keyOf(request) === 'sk-local-a').length;
    expect(triedWithA).toBe(1);
    for (let index = 0; index < 3; index += 1) await ask(index % 2 === 0 ? 'gpt-test' : 'big-test');
    expect(upstream.requests.filter((request) => keyOf(request) === 'sk-local-a').length).toBe(1);

    const log = logLines.join('');
    expect(log).toContain('…al-a');
    expect(log).toMatch(/"status":401/);
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/hermes_router_key_auth_failures_total\{[^}]*key="…al-a"[^}]*status="401"[^}]*\} 1/);
    expect(metrics).toMatch(/hermes_router_key_auth_resting\{[^}]*key="…al-a"[^}]*\} 1/);

    // After the rest, key a is tried again; the upstream takes it now.
    rejectA = false;
    stepClock(authRestMs + 100);
    const after = upstream.requests.length;
    for (let index = 0; index < 2; index += 1) await ask('gpt-test');
    expect(upstream.requests.slice(after).map(keyOf)).toContain('sk-local-a');
  });

  it('config reload lifts every rest at once and applies the new rest lengths', async () => {
    upstream.setScript({
      respond: (request) =>
        keyOf(request) === 'sk-local-b' ? { kind: 'error', status: 401, message: 'revoked' } : { kind: 'synthetic', text: 'ok' },
    });
    for (let index = 0; index < 2; index += 1) await ask('gpt-test');
    expect(upstream.requests.filter((request) => keyOf(request) === 'sk-local-b').length).toBe(1);
    const reloaded = parseConfig(
      { ...defaultConfig(upstream.url), server: { port: 0 }, fallbacks: { 'gpt-test': ['big-test'] }, resilience: { auth_rest_ms: 7_000, auth_rest_max_ms: 9_000 } },
      'test',
    );
    gateway.gateway.reload(reloaded);
    expect(gateway.gateway.authRests.resting()).toEqual([]);
    // The key is tried again at once; it is still refused, and now rests for the reloaded length.
    const after = upstream.requests.length;
    for (let index = 0; index < 2; index += 1) await ask('gpt-test');
    expect(upstream.requests.slice(after).map(keyOf)).toContain('sk-local-b');
    expect(gateway.gateway.authRests.resting().map((event) => event.restMs)).toEqual([7_000]);
  });
});
