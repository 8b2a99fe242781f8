import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../src/cli/main.js';
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

async function doctor(config: object): Promise<{ code: number; report: { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] } }> {
  const path = join(directory, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, stringify(config));
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const code = await main(['doctor', '--json', '--config', path, '--port', '0', '--data-dir', join(directory, 'data')], {
    stdout,
    stderr: new PassThrough(),
    env: {},
    cwd: directory,
  });
  return { code, report: JSON.parse(text.trim().split('\n').at(-1) ?? '{}') };
}

describe('hermes-router doctor', () => {
  it('passes with a reachable provider and a writable data directory', async () => {
    const { code, report } = await doctor({ providers: [{ id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, models: ['m'] }] });
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => check.name)).toEqual(expect.arrayContaining(['config', 'provider local', 'port', 'data directory']));
  });

  it('fails, naming the provider, when one is unreachable', async () => {
    const { code, report } = await doctor({ providers: [{ id: 'gone', kind: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', models: ['m'] }] });
    expect(code).toBe(1);
    expect(report.checks.find((check) => check.name === 'provider gone')?.ok).toBe(false);
  });

  it('fails on an invalid config, naming the path', async () => {
    const { code, report } = await doctor({ providers: [{ id: 'x', kind: 'no-such-kind', models: ['m'] }] });
    expect(code).toBe(1);
    expect(report.checks.find((check) => check.name === 'config')?.detail).toMatch(/providers\[0\]\.kind/);
  });
});
