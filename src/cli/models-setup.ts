import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../pipeline/load-config.js';
import { resolveDataDir } from '../config/paths.js';
import type { Config } from '../config/schema.js';
import { parseFlags } from './arguments.js';
import type { CommandContext } from './command.js';

export interface ModelsCommandSetup {
  config: Config;
  dataDir: string;
  json: boolean;
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

const commonFlags = {
  config: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

/**
 * The shared start of every `models …` command: flags, config and data directory. Returns an exit code
 * instead when it already answered (help, a bad flag, a broken config).
 */
export function setupModelsCommand(
  args: string[],
  context: CommandContext,
  usage: string,
  extraFlags: Record<string, { type: 'string' | 'boolean' }> = {},
): ModelsCommandSetup | number {
  let parsed;
  try {
    parsed = parseFlags(args, { ...commonFlags, ...extraFlags });
  } catch (error) {
    context.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) {
    context.stdout.write(usage);
    return 0;
  }
  const dataDirFlag = typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined;
  const dataDir = resolveDataDir({ flag: dataDirFlag, env: context.env });
  try {
    const configFlag = typeof values.config === 'string' ? values.config : undefined;
    const { config } = loadConfig({ configPath: configFlag ?? context.env.HERMES_ROUTER_CONFIG, cwd: context.cwd, dataDir, env: context.env });
    return { config, dataDir, json: values.json === true, positionals: parsed.positionals, values };
  } catch (error) {
    context.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    return 1;
  }
}
