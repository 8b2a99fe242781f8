import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelsListCommand } from '../../src/cli/models-list.js';
import { modelsProbeCommand } from '../../src/cli/models-probe.js';
import { modelsRouteCommand } from '../../src/cli/models-route.js';
import { modelsDisableCommand, modelsEnableCommand } from '../../src/cli/models-switch.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { startHarness } from '../support/gateway-harness.js';
import { adminKey } from './admin-client.js';
import { capturingContext } from '../support/cli-context.js';

let upstream: FakeUpstream;
let directory: string;
let configPath: string;

function context(env: NodeJS.ProcessEnv = {}) {
  return capturingContext({ env, cwd: directory });
}

function lastJson(text: string): Record<string, unknown> {
  const line = text.trim().split('\n').at(-1) ?? '{}';
  return JSON.parse(line) as Record<string, unknown>;
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  directory = mkdtempSync(join(tmpdir(), 'hermes-router-models-cli-'));
  configPath = join(directory, 'config.yaml');
  // Port 9 has no gateway: the switch commands must fall back to the file.
  const config = {
    server: { port: 9 },
    providers: [
      { id: 'openai', kind: 'openai', api_key: 'sk-x', models: ['gpt-4o-mini', 'text-embedding-3-small'] },
      { id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'sk-l', models: ['talker', 'looker', { id: 'pinned', supports_tools: false }] },
      { id: 'claude', kind: 'anthropic', base_url: upstream.url, api_key: 'sk-a', models: ['claude-probe'] },
    ],
  };
  writeFileSync(configPath, JSON.stringify(config));
});
afterAll(async () => {
  await upstream.close();
  rmSync(directory, { recursive: true, force: true });
});

const common = () => ['--config', configPath, '--data-dir', join(directory, 'data')];

describe('hermes-router models list', () => {
  it('shows capabilities with their sources, prices from the catalogue, and switches', async () => {
    const run = context();
    expect(await modelsListCommand.run([...common(), '--json'], run)).toBe(0);
    const listed = lastJson(run.out()) as { models: Record<string, unknown>[]; revision: number };
    const mini = listed.models.find((row) => row.model === 'gpt-4o-mini');
    expect(mini).toMatchObject({ enabled: true, kind: 'chat', tools: true, vision: true, tier: 3, contextWindow: 128_000, inputPerMillion: 0.15 });
    expect(mini?.sources).toMatchObject({ supportsTools: 'bundled', contextWindow: 'bundled', prices: 'bundled' });
    expect(listed.models.find((row) => row.model === 'text-embedding-3-small')).toMatchObject({ kind: 'embeddings', tools: false });
    expect(listed.models.find((row) => row.model === 'pinned')).toMatchObject({ tools: false, sources: expect.objectContaining({ supportsTools: 'config' }) });
    expect(listed.models.find((row) => row.model === 'talker')).toMatchObject({ tools: null, vision: null });
    const table = context();
    await modelsListCommand.run(common(), table);
    expect(table.out()).toMatch(/openai\/gpt-4o-mini\s+on\s+chat\s+128000\s+yes\s+yes/);
  });
});

describe('hermes-router models enable|disable', () => {
  it('edits model-policy.json when no gateway is running, and says so', async () => {
    const run = context();
    expect(await modelsDisableCommand.run([...common(), 'openai/gpt-4o-mini'], run)).toBe(0);
    expect(run.out()).toContain('no gateway running');
    const saved = JSON.parse(readFileSync(join(directory, 'data', 'model-policy.json'), 'utf8')) as { models: Record<string, { enabled: boolean }> };
    expect(saved.models['openai/gpt-4o-mini']?.enabled).toBe(false);
    const list = context();
    await modelsListCommand.run([...common(), '--json'], list);
    expect((lastJson(list.out()).models as { model: string; enabled: boolean }[]).find((row) => row.model === 'gpt-4o-mini')?.enabled).toBe(false);
    const again = context();
    expect(await modelsEnableCommand.run([...common(), 'openai/gpt-4o-mini', '--json'], again)).toBe(0);
    expect(lastJson(again.out())).toMatchObject({ enabled: true, via: 'file' });
  });

  it('rejects names that are not provider/model or not configured', async () => {
    expect(await modelsDisableCommand.run([...common(), 'gpt-4o-mini'], context())).toBe(2);
    expect(await modelsDisableCommand.run([...common(), 'openai/nope'], context())).toBe(1);
  });

  it('switches live through the running gateway with the admin key', async () => {
    const harness = await startHarness(undefined, { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } });
    try {
      const withoutKey = context();
      expect(await modelsDisableCommand.run([...common(), '--url', harness.gateway.url, 'local/talker'], withoutKey)).toBe(1);
      // The harness serves local/gpt-test; the CLI checks names against its own config, so use a matching one.
      const config = JSON.parse(readFileSync(configPath, 'utf8')) as { providers: { id: string; models: unknown[] }[] };
      const liveConfig = join(directory, 'live.yaml');
      writeFileSync(liveConfig, JSON.stringify({ ...config, providers: [{ id: 'local', kind: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', models: ['gpt-test'] }] }));
      const run = context({ HERMES_ROUTER_ADMIN_KEY: adminKey });
      const code = await modelsDisableCommand.run(['--config', liveConfig, '--data-dir', join(directory, 'data'), '--url', harness.gateway.url, '--json', 'local/gpt-test'], run);
      expect(run.err()).toBe('');
      expect(code).toBe(0);
      expect(lastJson(run.out())).toMatchObject({ via: 'gateway', enabled: false, revision: 1 });
      expect(harness.gateway.gateway.switches.isEnabled({ qualifiedName: 'local/gpt-test' })).toBe(false);
    } finally {
      await harness.close();
    }
  });
});

describe('hermes-router models probe', () => {
  it('confirms or denies tools and vision with one call each, and caches the result', async () => {
    upstream.reset();
    upstream.setScript({
      respond: (request) => {
        const body = request.json as { tools?: unknown; messages?: { content?: unknown }[] };
        const hasImage = JSON.stringify(body.messages ?? []).includes('image_url');
        if (request.model === 'talker' && hasImage) return { kind: 'error', status: 400, message: 'this model does not accept images' };
        if (request.model === 'looker' && body.tools) return { kind: 'error', status: 400, message: 'tools are not supported' };
        if (request.model === 'claude-probe' && JSON.stringify(body.messages ?? []).includes('"type":"image"')) {
          return { kind: 'error', status: 400, message: 'images are not supported' };
        }
        return undefined;
      },
    });
    const run = context();
    expect(await modelsProbeCommand.run([...common(), '--json', 'local/talker', 'local/looker', 'claude/claude-probe'], run)).toBe(0);
    const report = lastJson(run.out()) as { models: { model: string; result: { supportsTools?: boolean; supportsVision?: boolean }; calls: number }[] };
    expect(report.models.map((entry) => [entry.model, entry.result.supportsTools, entry.result.supportsVision, entry.calls])).toEqual([
      ['local/talker', true, false, 3],
      ['local/looker', false, true, 3],
      ['claude/claude-probe', true, false, 3],
    ]);
    // The Anthropic probe speaks the Messages API: tools with input_schema, a base64 image block, max_tokens.
    const anthropicCalls = upstream.requests.filter((request) => request.model === 'claude-probe');
    expect(anthropicCalls.map((request) => request.path)).toEqual(['/v1/messages', '/v1/messages', '/v1/messages']);
    expect(anthropicCalls[0]?.json).toMatchObject({ max_tokens: 32, tools: [{ name: 'ping', input_schema: { type: 'object' } }] });
    const list = context();
    await modelsListCommand.run([...common(), '--json'], list);
    const rows = lastJson(list.out()).models as { model: string; tools: boolean; vision: boolean; sources: Record<string, string> }[];
    expect(rows.find((row) => row.model === 'talker')).toMatchObject({ tools: true, vision: false, sources: { supportsTools: 'probe', supportsVision: 'probe' } });
  });

  it('leaves a capability unknown when the provider refuses for another reason', async () => {
    upstream.reset();
    upstream.setScript({ respond: { kind: 'error', status: 401 } });
    const run = context();
    await modelsProbeCommand.run([...common(), '--json', 'local/pinned'], run);
    const report = lastJson(run.out()) as { models: { result: Record<string, unknown>; notes: string[] }[] };
    expect(report.models[0]?.result.supportsTools).toBeUndefined();
    expect(report.models[0]?.notes.join(' ')).toContain('upstream_auth');
  });
});

describe('hermes-router models route', () => {
  it('explains the order without calling a provider', async () => {
    const before = upstream.requestCount();
    const run = context();
    expect(await modelsRouteCommand.run([...common(), '--json', 'What year did the Berlin wall fall?'], run)).toBe(0);
    const result = lastJson(run.out()) as { candidates: { model: string; route: string }[]; decision: { difficulty: number } };
    expect(result.decision.difficulty).toBe(5);
    expect(result.candidates.map((candidate) => candidate.model)).not.toContain('openai/text-embedding-3-small');
    expect(upstream.requestCount()).toBe(before);
  });

  it('reports a routing refusal with its status', async () => {
    const run = context();
    expect(await modelsRouteCommand.run([...common(), '--json', '--model', 'nope', 'hi'], run)).toBe(1);
    expect(lastJson(run.out())).toMatchObject({ error: { status: 404 } });
  });
});
