import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/pipeline/load-config.js';
import { startGateway } from '../../src/server/start-gateway.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { capturingContext } from '../support/cli-context.js';
import { bearer, call } from '../security/security-client.js';

let upstream: FakeUpstream;
let dir: string;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  dir = mkdtempSync(join(tmpdir(), 'hermes-router-discover-'));
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(name: string, providers: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, ['server: {port: 0}', 'providers:', ...providers.map((provider) => `  - ${provider}`), ''].join('\n'));
  return path;
}

async function run(...args: string[]) {
  const context = capturingContext({ cwd: dir, env: {} });
  const code = await main(args, context);
  return { code, out: context.out(), err: context.err() };
}

describe('hermes-router models discover', () => {
  it("lists what each provider's /v1/models has that the config does not serve, and configured models it does not list", async () => {
    upstream.setScript({ models: ['gpt-test', 'big-test', 'new-model'] });
    const config = writeConfig('discover.yaml', [
      `{id: local, kind: openai-compatible, base_url: "${upstream.url}/v1", api_key: sk-local, models: [gpt-test, gone-model]}`,
      `{id: claude, kind: anthropic, base_url: "${upstream.url}", api_key: sk-ant, models: [gpt-test, big-test, new-model]}`,
    ]);
    const { code, out } = await run('models', 'discover', '--config', config, '--data-dir', dir, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out) as { providers: { provider: string; ok: boolean; listed: string[]; addable: string[]; unlisted: string[] }[] };
    expect(report.providers).toEqual([
      { provider: 'local', ok: true, auto: false, listed: ['gpt-test', 'big-test', 'new-model'], addable: ['big-test', 'new-model'], unlisted: ['gone-model'] },
      { provider: 'claude', ok: true, auto: false, listed: ['gpt-test', 'big-test', 'new-model'], addable: [], unlisted: [] },
    ]);
    // The key went along the way each API wants it.
    const asked = upstream.requests.filter((request) => request.path === '/v1/models');
    expect(asked.map((request) => request.headers.authorization ?? request.headers['x-api-key'])).toEqual(expect.arrayContaining(['Bearer sk-local', 'sk-ant']));

    const one = await run('models', 'discover', '--config', config, '--data-dir', dir, '--provider', 'local');
    expect(one.out).toContain('local: lists 3 model(s)');
    expect(one.out).toContain('could be added (2): big-test, new-model');
    expect(one.out).toContain('configured but not listed: gone-model');
    expect(one.out).not.toContain('claude');
    const unknown = await run('models', 'discover', '--config', config, '--data-dir', dir, '--provider', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('no enabled provider "nope"');
  });

  it('a provider that cannot be reached is reported, with exit code 1', async () => {
    const config = writeConfig('down.yaml', ['{id: gone, kind: openai-compatible, base_url: "http://127.0.0.1:9/v1", models: [x]}']);
    const { code, out } = await run('models', 'discover', '--config', config, '--data-dir', dir);
    expect(code).toBe(1);
    expect(out).toContain('gone: could not list its models');
  });
});

describe('models: auto', () => {
  it('serves whatever the provider lists, re-reads the list on reload, and keeps the last list when the provider is away', async () => {
    upstream.setScript({ models: ['alpha', 'beta'] });
    const configPath = writeConfig('auto.yaml', [`{id: local, kind: openai-compatible, base_url: "${upstream.url}/v1", api_key: sk-local, models: auto}`]);
    const autoDir = mkdtempSync(join(dir, 'data-'));
    const load = () => loadConfig({ configPath, cwd: dir, dataDir: autoDir, env: {} }).config;
    const adminKey = 'auto-admin-key-0123456789abcdef';
    const running = await startGateway({ config: load(), dataDir: autoDir, env: { HERMES_ROUTER_ADMIN_KEY: adminKey }, logger: pino({ level: 'silent' }), configSource: load });
    const chat = (model: string) => call(`${running.url}/v1/chat/completions`, { method: 'POST', json: { model, messages: [{ role: 'user', content: 'hi' }] } });
    try {
      expect((await chat('alpha')).status).toBe(200);
      expect((await chat('beta')).headers.get('x-hermes-router-model')).toBe('local/beta');
      expect((await chat('gamma')).status).toBe(404);

      upstream.setScript({ models: ['alpha', 'gamma'] });
      const reloaded = await call(`${running.url}/v1/config/reload`, { method: 'POST', headers: bearer(adminKey) });
      expect(reloaded.body).toMatchObject({ models: ['local/alpha', 'local/gamma'] });
      expect((await chat('gamma')).status).toBe(200);
      expect((await chat('beta')).status).toBe(404);

      // The provider cannot be reached: the reload keeps serving the last list it read.
      writeConfig('auto.yaml', [`{id: local, kind: openai-compatible, base_url: "http://127.0.0.1:9/v1", api_key: sk-local, models: auto}`]);
      const offline = await call(`${running.url}/v1/config/reload`, { method: 'POST', headers: bearer(adminKey) });
      expect(offline.body).toMatchObject({ models: ['local/alpha', 'local/gamma'] });
    } finally {
      await running.close();
    }
  });
});
