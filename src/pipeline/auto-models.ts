import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, ProviderConfig } from '../config/schema.js';
import { KeyPool } from '../dispatch/key-pool.js';
import { createProvider } from '../providers/registry.js';

export interface AutoModelsLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

type DiscoveredFile = Record<string, { models: string[]; at: string }>;

export function discoveredModelsPath(dataDir: string): string {
  return join(dataDir, 'discovered-models.json');
}

function readCache(path: string): DiscoveredFile {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as DiscoveredFile;
  } catch {
    return {};
  }
}

/** The ids a provider lists at its model list endpoint (`/v1/models`, Anthropic's models list), or why not. */
export async function listProviderModels(provider: ProviderConfig, env: NodeJS.ProcessEnv, timeoutMs = 8_000): Promise<string[]> {
  const client = createProvider(provider, Math.min(timeoutMs, 5_000), 0);
  try {
    const key = KeyPool.fromConfig(provider, env).keys[0]?.value;
    const listed = await client.check(key, AbortSignal.timeout(timeoutMs));
    if (listed === undefined) throw new Error('its answer is not a model list');
    return listed;
  } finally {
    await client.close();
  }
}

/**
 * Replaces `models: auto` with the models each such provider lists now. The lists are kept in
 * `<data dir>/discovered-models.json`, so a provider that cannot be reached at start (or on a reload) serves its
 * last known list instead of nothing. Providers with a written list are left alone.
 */
export async function expandAutoModels(config: Config, options: { env: NodeJS.ProcessEnv; dataDir: string; logger?: AutoModelsLogger }): Promise<Config> {
  if (!config.providers.some((provider) => provider.models === 'auto')) return config;
  const path = discoveredModelsPath(options.dataDir);
  const cache = readCache(path);
  const providers = await Promise.all(
    config.providers.map(async (provider) => {
      if (provider.models !== 'auto' || !provider.enabled) return provider;
      try {
        const models = await listProviderModels(provider, options.env);
        cache[provider.id] = { models, at: new Date().toISOString() };
        options.logger?.info({ provider: provider.id, models: models.length }, 'models: auto — serving what the provider lists');
        return { ...provider, models };
      } catch (error) {
        const cached = cache[provider.id]?.models ?? [];
        options.logger?.warn(
          { provider: provider.id, error: error instanceof Error ? error.message : String(error), cachedModels: cached.length },
          'models: auto — the provider did not list its models; serving its last known list',
        );
        return { ...provider, models: cached };
      }
    }),
  );
  try {
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(`${path}.tmp`, `${JSON.stringify(cache, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
  } catch (error) {
    options.logger?.warn({ error: error instanceof Error ? error.message : String(error) }, 'could not keep the discovered model lists');
  }
  // Empty lists stay empty (not `auto`): such a provider serves nothing until it answers.
  return { ...config, providers: providers.map((provider) => (provider.models === 'auto' ? { ...provider, models: [] } : provider)) as Config['providers'] };
}
