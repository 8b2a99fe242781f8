import { createServer } from 'node:net';
import { ConfigError } from '../config/config-error.js';
import { DataDirError, ensureDataDir } from '../config/data-dir.js';
import { loadConfig } from '../pipeline/load-config.js';
import type { Config } from '../config/schema.js';
import { resolveDataDir } from '../config/paths.js';
import { KeyPool } from '../dispatch/key-pool.js';
import { providerKinds } from '../config/provider-kinds.js';
import type { ProviderKindInfo } from '../config/provider-kinds.js';
import { modelListed } from '../providers/listed-models.js';
import { createProvider } from '../providers/registry.js';
import { flagsOrExit, parsePort } from './arguments.js';
import type { Command } from './command.js';
import { describePortInUse } from './port-holder.js';
import { gatewayUrl } from './running-gateway.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const usage = `Usage: hermes-router doctor [--config FILE] [--port N] [--host H] [--data-dir DIR] [--json]

Checks the config, calls each provider once (key, reachability, the configured models in its model list), and
checks the port (free, or held by a healthy hermes-router) and the data directory; exit 0 when all pass.
`;

function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** Whether the gateway itself answers on the port: then "in use" is the expected state, not a failure. */
async function runningGatewayHealth(url: string): Promise<{ providers: number } | undefined> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
    const body = (await response.json()) as { service?: unknown; status?: unknown; providers?: unknown };
    if (body.service !== 'hermes-router' || body.status !== 'ok') return undefined;
    return { providers: typeof body.providers === 'number' ? body.providers : 0 };
  } catch {
    return undefined;
  }
}

async function checkPort(server: Config['server']): Promise<Check> {
  const address = `${server.host}:${server.port}`;
  if (await portFree(server.host, server.port)) return { name: 'port', ok: true, detail: `${address} is free` };
  const health = await runningGatewayHealth(gatewayUrl(server, undefined));
  if (health) return { name: 'port', ok: true, detail: `${address}: hermes-router is running there and healthy (${health.providers} provider(s))` };
  return { name: 'port', ok: false, detail: `${describePortInUse(server.host, server.port)}; stop it or start with --port N` };
}

async function checkProvider(providerConfig: Config['providers'][number], index: number, env: NodeJS.ProcessEnv): Promise<Check> {
  const name = `provider ${providerConfig.id}`;
  if (!providerConfig.enabled) return { name, ok: true, detail: 'disabled in config' };
  // A variable the config names but the environment lacks is a mistake, not a keyless local server.
  const keyVariable = providerConfig.api_key_env;
  if (keyVariable && !env[keyVariable] && !providerConfig.api_key && !providerConfig.api_keys) {
    return { name, ok: false, detail: `api_key_env ${keyVariable} is not set in this environment` };
  }
  const kind: ProviderKindInfo = providerKinds[providerConfig.kind];
  const defaultVariable = kind.defaultKeyEnv;
  const key = KeyPool.fromConfig(providerConfig, env).keys[0]?.value;
  if (key === undefined && defaultVariable && !keyVariable) {
    return { name, ok: false, detail: `no key: set ${defaultVariable}, or api_key / api_key_env in the config` };
  }
  const provider = createProvider(providerConfig, 5_000, index);
  try {
    const listed = await provider.check(key, AbortSignal.timeout(8_000));
    const configured = (providerConfig.models === 'auto' ? [] : providerConfig.models).map((model) => (typeof model === 'string' ? model : (model.upstream_id ?? model.id)));
    if (listed === undefined) return { name, ok: true, detail: `reachable, ${configured.length} model(s) configured (it lists no models to compare)` };
    const unlisted = configured.filter((model) => !modelListed(model, listed));
    if (unlisted.length > 0) {
      return { name, ok: false, detail: `reachable, but it does not list ${unlisted.join(', ')} (check the model id; it lists ${listed.length} model(s))` };
    }
    return { name, ok: true, detail: `reachable, key accepted, ${configured.length} configured model(s) listed` };
  } catch (error) {
    return { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
  } finally {
    await provider.close();
  }
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check config, providers, port and data directory',
  async run(args, context) {
    const flags = flagsOrExit(
      args,
      {
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      usage,
      context,
    );
    if (typeof flags === 'number') return flags;
    let port: number | undefined;
    try {
      port = parsePort(flags.port);
    } catch (error) {
      context.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    const checks: Check[] = [];
    const dataDir = resolveDataDir({ flag: flags['data-dir'], env: context.env });
    let config: Config | undefined;
    try {
      const loaded = loadConfig({
        configPath: flags.config ?? context.env.HERMES_ROUTER_CONFIG,
        cwd: context.cwd,
        dataDir,
        env: context.env,
        overrides: { host: flags.host, port },
      });
      config = loaded.config;
      checks.push({ name: 'config', ok: true, detail: loaded.source ?? 'no file found; using defaults' });
    } catch (error) {
      checks.push({ name: 'config', ok: false, detail: error instanceof ConfigError ? error.message : String(error) });
    }
    if (config) {
      if (config.providers.length === 0) {
        checks.push({ name: 'providers', ok: false, detail: 'none configured: chat requests will answer 503' });
      }
      const env = context.env;
      checks.push(...(await Promise.all(config.providers.map((provider, index) => checkProvider(provider, index, env)))));
      checks.push(await checkPort(config.server));
    }
    try {
      ensureDataDir(dataDir);
      checks.push({ name: 'data directory', ok: true, detail: `${dataDir} is writable` });
    } catch (error) {
      checks.push({ name: 'data directory', ok: false, detail: error instanceof DataDirError ? error.message : String(error) });
    }
    const ok = checks.every((check) => check.ok);
    if (flags.json) {
      context.stdout.write(`${JSON.stringify({ ok, checks })}\n`);
    } else {
      const width = Math.max(...checks.map((check) => check.name.length));
      for (const check of checks) {
        context.stdout.write(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name.padEnd(width)}  ${check.detail}\n`);
      }
      context.stdout.write(ok ? '\nAll checks passed.\n' : '\nSome checks failed.\n');
    }
    return ok ? 0 : 1;
  },
};
