import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the gateway keeps its data (SQLite ledger, policy files): `--data-dir`, else `HERMES_ROUTER_HOME`,
 * else `~/.hermes-router`.
 */
export function resolveDataDir(options: { flag?: string | undefined; env?: NodeJS.ProcessEnv }): string {
  const fromEnvironment = options.env?.HERMES_ROUTER_HOME;
  if (options.flag) return resolve(options.flag);
  if (fromEnvironment) return resolve(fromEnvironment);
  return join(homedir(), '.hermes-router');
}
