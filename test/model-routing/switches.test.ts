import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { adminKey, chat, listSwitches, setSwitch } from './admin-client.js';

const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-switches-'));
let harness: Harness;
let client: OpenAI;

async function start(env: Record<string, string> = { HERMES_ROUTER_ADMIN_KEY: adminKey }): Promise<Harness> {
  return startHarness(defaultConfig, { dataDir, env });
}

beforeAll(async () => {
  harness = await start();
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'client', maxRetries: 0 });
});
afterAll(async () => {
  await harness.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => harness.upstream.reset());

describe('admin API access', () => {
  it('answers 403 with a hint when no admin key is configured', async () => {
    const other = await startHarness();
    try {
      const result = await setSwitch(other.gateway.url, { provider: 'local', model: 'gpt-test', enabled: false });
      expect(result.status).toBe(403);
      expect(JSON.stringify(result.body)).toContain('HERMES_ROUTER_ADMIN_KEY');
    } finally {
      await other.close();
    }
  });

  it('answers 401 to a wrong or missing key and changes nothing', async () => {
    const before = harness.gateway.gateway.switches.revision;
    expect((await setSwitch(harness.gateway.url, { provider: 'local', model: 'gpt-test', enabled: false }, { key: 'nope' })).status).toBe(401);
    expect((await setSwitch(harness.gateway.url, { provider: 'local', model: 'gpt-test', enabled: false }, { key: undefined })).status).toBe(401);
    expect(harness.gateway.gateway.switches.revision).toBe(before);
  });

  it('rejects unknown models and malformed bodies', async () => {
    expect((await setSwitch(harness.gateway.url, { provider: 'local', model: 'nope', enabled: false })).status).toBe(404);
    const response = await fetch(`${harness.gateway.url}/v1/config/models/enabled`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'local', model: 'gpt-test', enabled: 'no' }),
    });
    expect(response.status).toBe(400);
  });
});

describe('live switches', () => {
  afterEach(async () => {
    for (const deployment of harness.gateway.gateway.catalog.deployments) {
      if (!harness.gateway.gateway.switches.isEnabled(deployment)) {
        await setSwitch(harness.gateway.url, { provider: deployment.providerId, model: deployment.modelId, enabled: true });
      }
    }
  });

  it('switching a model off answers the new state and moves the next request to its fallback at once', async () => {
    const first = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(first.response.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    const before = harness.gateway.gateway.switches.revision;
    const result = await setSwitch(harness.gateway.url, { provider: 'local', model: 'gpt-test', enabled: false });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ provider: 'local', model: 'gpt-test', enabled: false, restart_required: false, revision: before + 1 });
    expect(result.etag).toBe(`"${before + 1}"`);
    const second = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(second.response.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect(second.response.headers.get('x-hermes-router-route')).toBe('fallback');
    expect(harness.upstream.requests.map((request) => request.model)).toEqual(['gpt-test', 'big-test']);
    const list = await listSwitches(harness.gateway.url);
    expect(list.body.revision).toBe(before + 1);
    expect((list.body.audit as unknown[]).at(-1)).toMatchObject({ model: 'local/gpt-test', enabled: false, by: 'admin-api', revision: before + 1 });
    expect(list.body.models).toContainEqual(
      expect.objectContaining({ provider: 'local', model: 'gpt-test', enabled: false, kind: 'chat', metadata: expect.objectContaining({ tier: 3, sources: expect.objectContaining({ tier: 'pattern' }) }) }),
    );
    expect(list.body.models).toContainEqual(expect.objectContaining({ model: 'big-test', metadata: expect.objectContaining({ context_window: 200_000 }) }));
  });

  it('a switch is per (provider, model): switching one off leaves the others', async () => {
    await setSwitch(harness.gateway.url, { provider: 'local', model: 'big-test', enabled: false });
    const answer = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(answer.response.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
  });

  it('retries skip a model switched off while its request is in flight', async () => {
    // The first attempt on gpt-test fails only once big-test (its fallback) has been switched off meanwhile.
    let release = (): void => undefined;
    const switchedOff = new Promise<void>((resolve) => (release = resolve));
    harness.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 500, heldUntil: switchedOff } } });
    const pending = chat(harness.gateway.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'in flight' }] });
    await expect.poll(() => harness.upstream.requests.some((request) => request.model === 'gpt-test'), { timeout: 15_000, interval: 10 }).toBe(true);
    await setSwitch(harness.gateway.url, { provider: 'local', model: 'big-test', enabled: false });
    release();
    const result = await pending;
    expect(harness.upstream.requests.map((request) => request.model)).not.toContain('big-test');
    expect(result.status).toBeGreaterThanOrEqual(500);
  });

  it('every chat model off → 503 with a message that says how to switch one on', async () => {
    for (const [provider, model] of [['local', 'gpt-test'], ['local', 'big-test'], ['claude', 'claude-test']] as const) {
      expect((await setSwitch(harness.gateway.url, { provider, model, enabled: false })).status).toBe(200);
    }
    const result = await chat(harness.gateway.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(result.status).toBe(503);
    expect(JSON.stringify(result.body)).toMatch(/Every chat model is switched off.*models enable/);
    expect(harness.upstream.requests).toHaveLength(0);
  });

  it('a stale If-Match revision gets 409 on the admin API and on chat requests', async () => {
    const revision = harness.gateway.gateway.switches.revision;
    const stale = await setSwitch(harness.gateway.url, { provider: 'local', model: 'gpt-test', enabled: false }, { ifMatch: `"${revision - 1}"` });
    expect(stale.status).toBe(409);
    expect(harness.gateway.gateway.switches.revision).toBe(revision);
    const fresh = await setSwitch(harness.gateway.url, { provider: 'local', model: 'gpt-test', enabled: false }, { ifMatch: `"${revision}"` });
    expect(fresh.status).toBe(200);
    const staleChat = await chat(harness.gateway.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, { 'if-match': `"${revision}"` });
    expect(staleChat.status).toBe(409);
    const currentChat = await chat(harness.gateway.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, { 'if-match': `"${revision + 1}"` });
    expect(currentChat.status).toBe(200);
    // Every answer (errors included) tells the client the revision to send back.
    expect(currentChat.headers.get('x-hermes-router-policy-revision')).toBe(String(revision + 1));
    expect(staleChat.headers.get('x-hermes-router-policy-revision')).toBe(String(revision + 1));
  });
});

describe('persistence', () => {
  it('saves model-policy.json atomically and restores it after a restart, also for a model removed and re-added', async () => {
    await setSwitch(harness.gateway.url, { provider: 'claude', model: 'claude-test', enabled: false });
    const saved = JSON.parse(readFileSync(join(dataDir, 'model-policy.json'), 'utf8')) as { revision: number; models: Record<string, { enabled: boolean }> };
    expect(saved.models['claude/claude-test']?.enabled).toBe(false);
    await harness.close();
    // Restart without claude-test configured: its switch must survive...
    const withoutClaude = await startHarness(
      (url) => {
        const config = defaultConfig(url);
        return { ...config, providers: (config.providers ?? []).filter((provider) => provider.id !== 'claude') };
      },
      { dataDir, env: { HERMES_ROUTER_ADMIN_KEY: adminKey } },
    );
    const listed = await listSwitches(withoutClaude.gateway.url);
    expect(listed.body.unconfigured).toContainEqual(expect.objectContaining({ model: 'claude/claude-test', enabled: false }));
    await withoutClaude.close();
    // ...and apply again when it is added back.
    harness = await start();
    client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'client', maxRetries: 0 });
    expect(harness.gateway.gateway.switches.isEnabled({ qualifiedName: 'claude/claude-test' })).toBe(false);
    expect(harness.gateway.gateway.switches.revision).toBe(saved.revision);
    const result = await chat(harness.gateway.url, { model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(result.headers.get('x-hermes-router-model')).not.toBe('claude/claude-test');
  });
});
