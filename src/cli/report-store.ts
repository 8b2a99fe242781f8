import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveDataDir } from '../config/paths.js';
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
    render: (store: LedgerStore, options: ReportOptions) => Promise<void>;
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
  const path = ledgerDatabasePath(dataDir);
  if (!existsSync(path)) {
    if (options.json) context.stdout.write(`${JSON.stringify(report.empty(options))}\n`);
    else context.stdout.write(`No ledger at ${path} yet: the gateway creates it when it serves its first request.\n`);
    return 0;
  }
  let store: LedgerStore | undefined;
  try {
    store = new SqliteLedgerStore({ path });
    await report.render(store, options);
    return 0;
  } catch (error) {
    context.stderr.write(`report ${report.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await store?.close();
  }
}
