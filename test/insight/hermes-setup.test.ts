import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { setupHermesCommand } from '../../src/cli/setup-hermes.js';
import { planHermesSetup } from '../../src/insight/hermes-setup.js';

const existing = `# my Hermes settings
model:
  provider: openrouter
  default: anthropic/claude-sonnet-4.5   # keep this
custom_providers:
  - name: lab
    base_url: http://10.0.0.5:9000/v1
    api_key: lab-key
`;

describe('setup hermes', () => {
  it('adds the gateway as a custom provider, keeps comments and other providers, and is idempotent', () => {
    const plan = planHermesSetup(existing, { baseUrl: 'http://127.0.0.1:8319/v1', model: 'hermes-router' });
    expect(plan.changed).toBe(true);
    expect(plan.text).toContain('# my Hermes settings');
    expect(plan.text).toContain('# keep this');
    const parsed = parse(plan.text) as { model: { provider: string }; custom_providers: Record<string, string>[] };
    expect(parsed.model.provider).toBe('openrouter');
    expect(parsed.custom_providers).toEqual([
      { name: 'lab', base_url: 'http://10.0.0.5:9000/v1', api_key: 'lab-key' },
      { name: 'hermes-router', base_url: 'http://127.0.0.1:8319/v1', model: 'hermes-router', api_key: 'hermes-router-local' },
    ]);
    // Only additions, apart from the YAML writer normalising spacing before a comment.
    const squash = (line: string): string => line.slice(2).replace(/\s+/g, ' ');
    const added = plan.diff.filter((line) => line.startsWith('+ ')).map(squash);
    for (const removed of plan.diff.filter((line) => line.startsWith('- '))) expect(added).toContain(squash(removed));
    expect(added).toContain(' - name: hermes-router');
    expect(planHermesSetup(plan.text, { baseUrl: 'http://127.0.0.1:8319/v1', model: 'hermes-router' }).changed).toBe(false);

    const moved = planHermesSetup(plan.text, { baseUrl: 'http://127.0.0.1:9999/anthropic', model: 'hermes-router', keyEnv: 'HR_KEY', makeDefault: true });
    const after = parse(moved.text) as { model: Record<string, string>; custom_providers: Record<string, string>[] };
    // --make-default changes model: only; the custom provider entry is left as it was.
    expect(after.custom_providers).toEqual(parsed.custom_providers);
    expect(after.model).toEqual({ provider: 'custom', default: 'hermes-router', base_url: 'http://127.0.0.1:9999/anthropic', api_key: 'hermes-router-local' });
  });

  it('--make-default replaces the previous provider\'s api_key, adds no custom provider, and leaves every other line byte for byte', () => {
    const hermes = [
      '# Hermes config',
      'model:',
      '  provider: openrouter',
      '  default: anthropic/claude-sonnet-4.5   # the main model',
      '  api_key: sk-or-v1-previous-provider-secret',
      'terminal: {backend: local, cwd: .}',
      'display:',
      "  welcome: 'a long welcome line that goes on well past eighty columns, which a YAML writer would fold into two'",
      'toolsets: [web, terminal,   file]',
      'memory:',
      '    provider: ""',
      '',
    ].join('\n');
    const plan = planHermesSetup(hermes, { baseUrl: 'http://127.0.0.1:8319/v1', model: 'hermes-router', makeDefault: true });
    expect(plan.text).not.toContain('sk-or-v1-previous-provider-secret');
    expect(plan.text).not.toContain('custom_providers');
    const model = (parse(plan.text) as { model: Record<string, string> }).model;
    expect(model).toEqual({ provider: 'custom', default: 'hermes-router', api_key: 'hermes-router-local', base_url: 'http://127.0.0.1:8319/v1' });
    // Only model: lines differ; everything else, comments and odd spacing included, is unchanged.
    const beforeLines = hermes.split('\n');
    const afterLines = plan.text.split('\n');
    for (const line of beforeLines.filter((text) => !/^ {2}(provider|default|api_key|base_url):/.test(text))) expect(afterLines).toContain(line);
    expect(plan.diff.filter((line) => line.startsWith('- '))).toEqual([
      '-   provider: openrouter',
      '-   default: anthropic/claude-sonnet-4.5   # the main model',
      '-   api_key: sk-or-v1-previous-provider-secret',
    ]);
    expect(plan.diff).toContain('+   default: hermes-router   # the main model');
    // With keys required, the gateway's application key goes there instead.
    const keyed = planHermesSetup(hermes, { baseUrl: 'http://127.0.0.1:8319/v1', model: 'hermes-router', makeDefault: true, apiKey: 'hrk_0123456789_app' });
    expect((parse(keyed.text) as { model: Record<string, string> }).model.api_key).toBe('hrk_0123456789_app');
    expect(planHermesSetup(plan.text, { baseUrl: 'http://127.0.0.1:8319/v1', model: 'hermes-router', makeDefault: true }).changed).toBe(false);
  });

  it('writes a backup, checks the gateway answers, and changes nothing the second time', async () => {
    const server = createServer((request, response) => {
      response.writeHead(request.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
      response.end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const home = mkdtempSync(join(tmpdir(), 'hermes-setup-'));
    writeFileSync(join(home, 'config.yaml'), existing);
    const run = async (extra: string[]) => {
      const stdout = new PassThrough();
      let text = '';
      stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const code = await setupHermesCommand.run(['--hermes-home', home, '--url', url, '--json', ...extra], { stdout, stderr: new PassThrough(), env: {}, cwd: tmpdir() });
      expect(code).toBe(0);
      return JSON.parse(text.trim()) as { changed: boolean; backup: string | null; reachable: boolean; diff: string[] };
    };
    try {
      const dry = await run(['--dry-run']);
      expect(dry.changed).toBe(true);
      expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toBe(existing);
      const first = await run([]);
      expect(first).toMatchObject({ changed: true, reachable: true });
      expect(first.backup && readFileSync(first.backup, 'utf8')).toBe(existing);
      expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toContain(`base_url: ${url}/v1`);
      const second = await run([]);
      expect(second).toMatchObject({ changed: false, backup: null, diff: [] });
      expect(readdirSync(home).filter((name) => name.startsWith('config.yaml.bak-'))).toHaveLength(1);
    } finally {
      server.close();
    }
    const fresh = mkdtempSync(join(tmpdir(), 'hermes-setup-new-'));
    const stdout = new PassThrough();
    await setupHermesCommand.run(['--hermes-home', fresh, '--url', 'http://127.0.0.1:9'], { stdout, stderr: new PassThrough(), env: {}, cwd: tmpdir() });
    expect(existsSync(join(fresh, 'config.yaml'))).toBe(true);
  });
});
