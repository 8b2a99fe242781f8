// Reading the config a gateway runs with: file, environment, flags, the schema (src/config/), and the checks the
// schema cannot express. It lives here, not in config/, because one of those checks asks the model catalogue
// (is `cache.semantic.embedding_model` an embeddings model some provider serves?), and the catalogue sits rows
// above the schema; every caller (the CLI, the evals, the reload route's config source) is above pipeline/.
import { fallbackChain } from '../config/fallbacks.js';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../config/config-error.js';
import { applyEnvironment } from '../config/environment.js';
import { configSchema } from '../config/schema.js';
import type { Config, ConfigInput } from '../config/schema.js';
import { isJsonObject } from '../core/json.js';
import { semanticCacheConfigProblems } from '../cache/semantic/check-semantic-config.js';

export interface LoadConfigOptions {
  /** `--config FILE`: must exist when given. */
  configPath?: string | undefined;
  cwd: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Flags (`--port`, `--host`) that win over both file and environment. */
  overrides?: { host?: string | undefined; port?: number | undefined; logFormat?: string | undefined };
}

export interface LoadedConfig {
  config: Config;
  /** The file the config came from, or undefined when none was found (defaults only). */
  source: string | undefined;
}

/** `--config`, else `./hermes-router.yaml`, else `<data dir>/config.yaml`, else none. */
export function findConfigFile(options: Pick<LoadConfigOptions, 'configPath' | 'cwd' | 'dataDir'>): string | undefined {
  if (options.configPath) {
    const explicit = resolve(options.cwd, options.configPath);
    if (!existsSync(explicit)) {
      throw new ConfigError(explicit, ['the file does not exist; check the --config path']);
    }
    return explicit;
  }
  const candidates = [join(options.cwd, 'hermes-router.yaml'), join(options.dataDir, 'config.yaml')];
  return candidates.find((candidate) => existsSync(candidate));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length === 0 ? '(top level)' : formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return `${path}: unknown key(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}; remove or correct them`;
  }
  return `${path}: ${issue.message}`;
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

/** Validates a config object; errors name each offending path. */
export function parseConfig(input: unknown, source: string): Config {
  const result = configSchema.safeParse(input ?? {});
  if (!result.success) throw new ConfigError(source, result.error.issues.map(describeIssue));
  const config = result.data;
  const problems = crossCheck(config);
  if (problems.length > 0) throw new ConfigError(source, problems);
  return config;
}

/** Checks the schema cannot express: unique ids, model names that resolve. */
function crossCheck(config: Config): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const modelIds = new Set<string>();
  config.providers.forEach((provider, index) => {
    if (seen.has(provider.id)) problems.push(`providers[${index}].id: "${provider.id}" is used twice; ids must be unique`);
    seen.add(provider.id);
    for (const model of provider.models === 'auto' ? [] : provider.models) {
      const id = typeof model === 'string' ? model : model.id;
      modelIds.add(id);
      modelIds.add(`${provider.id}/${id}`);
    }
  });
  // A provider with `models: auto` serves what it lists, known only once asked: names are checked against it then.
  const listsOwnModels = config.providers.some((provider) => provider.models === 'auto');
  if (config.default_model && config.providers.length > 0 && !listsOwnModels && !modelIds.has(config.default_model)) {
    problems.push(`default_model: "${config.default_model}" is not served by any provider; add it to a provider's models`);
  }
  for (const [model, entry] of Object.entries(config.fallbacks)) {
    fallbackChain(entry).models.forEach((fallback, index) => {
      if (!listsOwnModels && !modelIds.has(fallback)) {
        problems.push(`fallbacks.${model}[${index}]: "${fallback}" is not served by any provider; add it to a provider's models`);
      }
    });
  }
  problems.push(...semanticCacheConfigProblems(config));
  return problems;
}

export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const source = findConfigFile(options);
  let input: ConfigInput = {};
  if (source) {
    let parsed: unknown;
    try {
      parsed = parseYaml(readFileSync(source, 'utf8'));
    } catch (error) {
      throw new ConfigError(source, [`not valid YAML: ${error instanceof Error ? error.message : String(error)}`]);
    }
    if (parsed !== null && parsed !== undefined && !isJsonObject(parsed)) {
      throw new ConfigError(source, ['(top level): expected a mapping of sections (server, providers, …)']);
    }
    input = (parsed ?? {}) as ConfigInput;
  }
  let withEnvironment: ConfigInput;
  try {
    withEnvironment = applyEnvironment(input, options.env);
  } catch (error) {
    throw new ConfigError('the environment', [error instanceof Error ? error.message : String(error)]);
  }
  const server = { ...(withEnvironment.server ?? {}) };
  if (options.overrides?.host !== undefined) server.host = options.overrides.host;
  if (options.overrides?.port !== undefined) server.port = options.overrides.port;
  withEnvironment.server = server;
  if (options.overrides?.logFormat !== undefined) {
    // Checked by the schema like the file's value, so a wrong flag names `logging.format` and its choices.
    withEnvironment.logging = { ...(withEnvironment.logging ?? {}), format: options.overrides.logFormat as NonNullable<ConfigInput['logging']>['format'] };
  }
  return { config: parseConfig(withEnvironment, source ?? 'the defaults'), source };
}
