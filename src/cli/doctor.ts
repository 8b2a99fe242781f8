import { accessSync, constants, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { resolveDataDir } from '../config/paths.js';
import { KeyPool } from '../dispatch/key-pool.js';
import { createProvider } from '../providers/registry.js';
import { parseFlags, parsePort } from './arguments.js';
import type { Command } from './command.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

async function checkProviders(config: Config, env: NodeJS.ProcessEnv): Promise<Check[]> {
  return Promise.all(
    config.providers.map(async (providerConfig, index): Promise<Check> => {
      const name = `provider ${providerConfig.id}`;
      if (!providerConfig.enabled) return { name, ok: true, detail: 'disabled in config' };
      const provider = createProvider(providerConfig, 5_000, index);
      const key = KeyPool.fromConfig(providerConfig, env).keys[0]?.value;
      const signal = AbortSignal.timeout(8_000);
      try {
        await provider.check(key, signal);
        return { name, ok: true, detail: `reachable, ${providerConfig.models.length} model(s) configured` };
      } catch (error) {
        return { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
      } finally {
        await provider.close();
      }
    }),
  );
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check config, providers, port and data directory',
  async run(args, context) {
    const { values: flags } = parseFlags(args, {
      config: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
    });
    const checks: Check[] = [];
    const dataDir = resolveDataDir({ flag: flags['data-dir'], env: context.env });
    let config: Config | undefined;
    try {
      const loaded = loadConfig({
        configPath: flags.config ?? context.env.HERMES_ROUTER_CONFIG,
        cwd: context.cwd,
        dataDir,
        env: context.env,
        overrides: { host: flags.host, port: parsePort(flags.port) },
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
      checks.push(...(await checkProviders(config, context.env)));
      const free = await portFree(config.server.host, config.server.port);
      checks.push({
        name: 'port',
        ok: free,
        detail: free ? `${config.server.host}:${config.server.port} is free` : `${config.server.host}:${config.server.port} is in use (a gateway may already be running)`,
      });
    }
    try {
      mkdirSync(dataDir, { recursive: true });
      accessSync(dataDir, constants.W_OK);
      checks.push({ name: 'data directory', ok: true, detail: `${dataDir} is writable` });
    } catch (error) {
      checks.push({ name: 'data directory', ok: false, detail: `${dataDir}: ${error instanceof Error ? error.message : String(error)}` });
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
