import { resolve } from 'node:path';
import { resolveDataDir } from '../config/paths.js';
import type { Config } from '../config/schema.js';
import { loadConfig } from '../pipeline/load-config.js';
import type { CommandContext } from './command.js';

/**
 * The data directory and gateway config a command works with: `--data-dir` (relative to the working directory),
 * else $HERMES_ROUTER_HOME or ~/.hermes-router; `--config` through `loadConfig` (its own search when absent).
 * A config that cannot be loaded is written as `<command>: <why>` and the exit code 1 comes back instead.
 */
export function commandConfig(
  command: string,
  flags: { config?: string | undefined; dataDir?: string | undefined },
  context: CommandContext,
): { dataDir: string; config: Config } | number {
  const flag = flags.dataDir === undefined ? undefined : resolve(context.cwd, flags.dataDir);
  const dataDir = resolveDataDir({ flag, env: context.env });
  try {
    return { dataDir, config: loadConfig({ configPath: flags.config, cwd: context.cwd, dataDir, env: context.env }).config };
  } catch (error) {
    context.stderr.write(`${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
