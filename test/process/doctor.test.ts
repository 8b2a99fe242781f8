import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../src/cli/main.js';
import { startHarness } from '../support/gateway-harness.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';

let upstream: FakeUpstream;
let directory: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  directory = mkdtempSync(join(tmpdir(), 'hermes-router-doctor-'));
});
afterAll(async () => {
  await upstream.close();
  rmSync(directory, { recursive: true, force: true });
});

type Report = { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };

async function doctor(
  config: object,
  options: { port?: number; dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; report: Report; check: (name: string) => { ok: boolean; detail: string } | undefined }> {
  const path = join(directory, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, stringify(config));
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const code = await main(
    ['doctor', '--json', '--config', path, '--port', String(options.port ?? 0), '--data-dir', options.dataDir ?? join(directory, 'data')],
    { stdout, stderr: new PassThrough(), env: options.env ?? {}, cwd: directory },
  );
  const report = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as Report;
  return { code, report, check: (name) => report.checks.find((check) => check.name === name) };
}

/** The fake upstream lists gpt-4.1-nano, gpt-4o-mini and claude-sonnet-4-5. */
function provider(extra: object = {}) {
  return { id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, models: ['gpt-4o-mini'], ...extra };
}

describe('hermes-router doctor', () => {
  it('passes with a reachable provider that lists the configured model and a writable data directory', async () => {
    const { code, report } = await doctor({ providers: [provider()] });
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(code).toBe(0);
    expect(report.checks.map((check) => check.name)).toEqual(expect.arrayContaining(['config', 'provider local', 'port', 'data directory']));
  });

  it('fails, naming the provider, when one is unreachable', async () => {
    const { code, check } = await doctor({ providers: [{ id: 'gone', kind: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', models: ['m'] }] });
    expect(code).toBe(1);
    expect(check('provider gone')?.ok).toBe(false);
  });

  it('fails on an invalid config, naming the path', async () => {
    const { code, check } = await doctor({ providers: [{ id: 'x', kind: 'no-such-kind', models: ['m'] }] });
    expect(code).toBe(1);
    expect(check('config')?.detail).toMatch(/providers\[0\]\.kind/);
  });

  it('fails when api_key_env names a variable the environment does not set', async () => {
    const { code, check } = await doctor({ providers: [provider({ api_key_env: 'LOCAL_KEY_NOT_SET' })] });
    expect(code).toBe(1);
    expect(check('provider local')).toEqual({ name: 'provider local', ok: false, detail: expect.stringContaining('LOCAL_KEY_NOT_SET is not set') });
    const set = await doctor({ providers: [provider({ api_key_env: 'LOCAL_KEY_SET' })] }, { env: { LOCAL_KEY_SET: 'sk-x' } });
    expect(set.check('provider local')?.ok).toBe(true);
  });

  it('fails when the provider does not list a configured model id (compares the upstream_id)', async () => {
    const { code, check } = await doctor({ providers: [provider({ models: ['gpt-4o-mini', 'gpt-4o-mni'] })] });
    expect(code).toBe(1);
    expect(check('provider local')?.detail).toContain('does not list gpt-4o-mni');
    const renamed = await doctor({ providers: [provider({ models: [{ id: 'mini', upstream_id: 'gpt-4o-mini' }] })] });
    expect(renamed.check('provider local')?.ok).toBe(true);
  });

  it('a running, healthy gateway on the port is not a failed port check', async () => {
    const harness = await startHarness();
    try {
      const port = Number(new URL(harness.gateway.url).port);
      const { check } = await doctor({ providers: [provider()] }, { port });
      expect(check('port')).toEqual({ name: 'port', ok: true, detail: expect.stringContaining('hermes-router is running there and healthy') });
    } finally {
      await harness.close();
    }
  });

  it('another program on the port fails, naming its process and suggesting --port', async () => {
    // A program that accepts and never answers, as a foreign server on the port would look to the health probe.
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const { code, check } = await doctor({ providers: [provider()] }, { port });
      expect(code).toBe(1);
      expect(check('port')?.ok).toBe(false);
      expect(check('port')?.detail).toContain('--port');
      // This test's own process holds it; /proc tells which (Linux).
      if (process.platform === 'linux') expect(check('port')?.detail).toContain(`pid ${process.pid}`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a data directory that is a file, or cannot be created, fails with the reason instead of hanging', async () => {
    const file = join(directory, 'a-file');
    writeFileSync(file, 'x');
    const onFile = await doctor({ providers: [provider()] }, { dataDir: file });
    expect(onFile.check('data directory')).toEqual({ name: 'data directory', ok: false, detail: expect.stringContaining('is a file, not a directory') });
    const beneathFile = await doctor({ providers: [provider()] }, { dataDir: join(file, 'below') });
    expect(beneathFile.check('data directory')?.detail).toContain(`${file} is a file`);
    if (process.platform === 'linux') {
      // Node's recursive mkdirSync never returns on /proc/x; doctor must answer.
      const proc = await doctor({ providers: [provider()] }, { dataDir: '/proc/hermes-router-x' });
      expect(proc.check('data directory')).toEqual({ name: 'data directory', ok: false, detail: expect.stringContaining('cannot create data directory /proc/hermes-router-x') });
    }
  });
});
