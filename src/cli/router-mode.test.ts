import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresPolicyStore } from '../store/postgres/postgres-policy-store.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../store/postgres/postgres-test-support.js';
import { routerModeFilePath } from '../tools/router-mode-file.js';
import { routerCommands } from './router-mode.js';
import { capturingContext } from '../../test/support/cli-context.js';

let directory: string;
let configPath: string;

function context() {
  return capturingContext({ cwd: directory });
}

const postgres = await postgresAvailable();
if (!postgres) console.warn(`skipping the router CLI's cluster case: no Postgres at ${postgresTestUrl}`);

async function run(action: keyof typeof routerCommands, config = configPath): Promise<Record<string, unknown>> {
  const io = context();
  const code = await routerCommands[action].run(['--config', config, '--data-dir', join(directory, 'data'), '--json'], io);
  expect(code, io.err()).toBe(0);
  return JSON.parse(io.out()) as Record<string, unknown>;
}

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'hermes-router-router-cli-'));
  configPath = join(directory, 'config.yaml');
  // Port 9 has no gateway: the commands save in the policy file.
  writeFileSync(configPath, JSON.stringify({ server: { port: 9 }, providers: [{ id: 'openai', kind: 'openai', api_key: 'sk-x', models: ['gpt-4o-mini'] }] }));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('hermes-router router, no gateway running', () => {
  it('honours a legacy tool-routing-mode.json until the mode is switched, then saves it in the policy', async () => {
    expect(await run('status')).toMatchObject({ mode: 'on', via: 'file' });
    const dataDir = join(directory, 'data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(routerModeFilePath(dataDir), JSON.stringify({ mode: 'shadow' }));
    expect(await run('status')).toMatchObject({ mode: 'shadow' });
    expect(await run('off')).toMatchObject({ mode: 'off', via: 'file', target: join(dataDir, 'model-policy.json') });
    const policy = JSON.parse(readFileSync(join(dataDir, 'model-policy.json'), 'utf8')) as Record<string, unknown>;
    expect(policy).toMatchObject({ revision: 1, toolRouting: { mode: 'off' }, audit: [{ toolRoutingMode: 'off', by: 'cli' }] });
    expect(await run('status')).toMatchObject({ mode: 'off' });
  });
});

describe.skipIf(!postgres)('hermes-router router, cluster storage, no gateway running', () => {
  const schema = uniqueSchemaName('router_cli');
  afterAll(() => dropSchemas([schema]));

  it('saves the mode in the shared policy in Postgres, where every instance reads it', async () => {
    const clusterConfig = join(directory, 'cluster.yaml');
    writeFileSync(
      clusterConfig,
      JSON.stringify({
        server: { port: 9 },
        providers: [{ id: 'openai', kind: 'openai', api_key: 'sk-x', models: ['gpt-4o-mini'] }],
        storage: { kind: 'cluster', postgres_url: postgresTestUrl, redis_url: 'redis://127.0.0.1:1', postgres_schema: schema },
      }),
    );
    expect(await run('shadow', clusterConfig)).toMatchObject({ mode: 'shadow', via: 'postgres' });
    const store = new PostgresPolicyStore({ url: postgresTestUrl, schema });
    try {
      expect((await store.load()).toolRouting?.mode).toBe('shadow');
    } finally {
      await store.close();
    }
    expect(await run('status', clusterConfig)).toMatchObject({ mode: 'shadow', via: 'postgres' });
  });
});
