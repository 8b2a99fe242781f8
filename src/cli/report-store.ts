import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../pipeline/load-config.js';
import { resolveDataDir } from '../config/paths.js';
import type { Config } from '../config/schema.js';
import { openConfiguredLedgerStore } from '../pipeline/stores/open-ledger-store.js';
import { ledgerDatabasePath } from '../ledger/open-ledger.js';
import type { LedgerStore } from '../store/ledger-store.js';
import { SqliteLedgerStore } from '../store/sqlite/sqlite-ledger-store.js';
import type { CommandContext } from './command.js';
import type { ReportOptions } from './report-options.js';
import { parseReportOptions, reportFlagsUsage } from './report-options.js';

/**
 * The shared frame of every report: parse flags, open `ledger.sqlite` in the data directory (without creating
 * it), run the report, close. A missing ledger is not an error: there is simply nothing to report yet.
 */
export async function runReport(
  args: string[],
  context: CommandContext,
  report: {
    name: string;
    paged?: boolean;
    extraUsage?: string;
    /** Writes the table (or JSON) to stdout. */
    render: (store: LedgerStore, options: ReportOptions, config: Config | undefined) => Promise<void>;
    /** The JSON written when no ledger exists yet. */
    empty: (options: ReportOptions) => unknown;
  },
): Promise<number> {
  const usage = `Usage: hermes-router report ${report.name} [options]\n\n${reportFlagsUsage}${report.extraUsage ?? ''}`;
  let options: ReportOptions;
  try {
    options = parseReportOptions(args, report.paged);
  } catch (error) {
    context.stderr.write(`report ${report.name}: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  if (options.help) {
    context.stdout.write(usage);
    return 0;
  }
  const flag = options.dataDir === undefined ? undefined : resolve(context.cwd, options.dataDir);
  const dataDir = resolveDataDir({ flag, env: context.env });
  let config: Config | undefined;
  try {
    config = loadConfig({ configPath: options.config ?? context.env.HERMES_ROUTER_CONFIG, cwd: context.cwd, dataDir, env: context.env }).config;
  } catch (error) {
    // Reports of the embedded ledger need no config; one that names a missing or broken file is still an error.
    if (options.config !== undefined) {
      context.stderr.write(`report ${report.name}: ${error instanceof ConfigError ? error.message : String(error)}\n`);
      return 1;
    }
  }
  const cluster = config?.storage.kind === 'cluster';
  const path = ledgerDatabasePath(dataDir, config?.ledger.database);
  if (!cluster && !existsSync(path)) {
    if (options.json) context.stdout.write(`${JSON.stringify(report.empty(options))}\n`);
    else context.stdout.write(`No ledger at ${path} yet: the gateway creates it when it serves its first request.\n`);
    return 0;
  }
  let store: LedgerStore | undefined;
  try {
    store = config
      ? await openConfiguredLedgerStore({ storage: config.storage, dataDir, database: config.ledger.database, env: context.env })
      : new SqliteLedgerStore({ path });
    await report.render(store, options, config);
    return 0;
  } catch (error) {
    context.stderr.write(`report ${report.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await store?.close();
  }
}
