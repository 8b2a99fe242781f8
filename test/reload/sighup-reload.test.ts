import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { spawnGateway } from '../support/spawn-gateway.js';

let upstream: FakeUpstream;
let dataDir: string;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-sighup-'));
});
afterAll(async () => {
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function config(models: string[]) {
  return { providers: [{ id: 'local', kind: 'openai-compatible' as const, base_url: `${upstream.url}/v1`, api_key: 'sk-test', models }] };
}

async function chat(url: string, model: string): Promise<number> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.text();
  return response.status;
}

async function until(condition: () => boolean, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} never happened:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('SIGHUP reloads the config file of a running `hermes-router start`', () => {
  it('a model added to the file is served after SIGHUP; a broken file is refused and the running config stays', async () => {
    const gateway = await spawnGateway(dataDir, config(['gpt-test']));
    const configPath = join(dataDir, 'test-config.yaml');
    try {
      expect(await chat(gateway.url, 'gpt-test')).toBe(200);
      expect(await chat(gateway.url, 'big-test')).toBeGreaterThanOrEqual(400);

      writeFileSync(configPath, stringify(config(['gpt-test', 'big-test'])));
      gateway.child.kill('SIGHUP');
      await until(() => gateway.output().includes('SIGHUP: config reloaded (1 providers, 2 models)'), 'the reload', gateway.output);
      expect(await chat(gateway.url, 'big-test')).toBe(200);

      writeFileSync(configPath, 'providers: [{id: local, kind: no-such-kind}]\n');
      gateway.child.kill('SIGHUP');
      await until(() => gateway.output().includes('SIGHUP: config not reloaded, the running one stays'), 'the refusal', gateway.output);
      expect(gateway.output()).toMatch(/providers\[0\]/);
      expect(await chat(gateway.url, 'big-test')).toBe(200);
      expect(gateway.child.exitCode).toBeNull();
    } finally {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
  }, 90_000);
});
