import type { Config } from '../config/schema.js';
import type { InsightModels } from '../insight/insight-models.js';
import { insightModelsFromConfig } from '../insight/insight-setup.js';
import { LedgerReader } from '../insight/ledger-reader.js';
import { ledgerDatabasePath } from '../ledger/open-ledger.js';
import { openConfiguredLedgerStore } from '../pipeline/stores/open-ledger-store.js';
import type { CommandContext } from './command.js';
import { commandConfig } from './command-config.js';
import type { ReportOptions } from './report-options.js';
import { parseReportOptions, reportFlagsUsage } from './report-options.js';

export interface InsightRun {
  reader: LedgerReader;
  models: InsightModels;
  config: Config;
  options: ReportOptions;
}

/** Pulls `--config FILE` out of the arguments; the other flags are the shared report flags. */
function takeConfigFlag(args: string[]): { configPath: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let configPath: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index] ?? '';
    if (argument === '--config') {
      configPath = args[index + 1];
      if (configPath === undefined) throw new Error('--config needs a file');
      index += 1;
    } else if (argument.startsWith('--config=')) configPath = argument.slice('--config='.length);
    else rest.push(argument);
  }
  return { configPath, rest };
}

/**
 * The ledger the config names, copied for the insight queries: `ledger.sqlite` opened read-only (undefined when
 * it does not exist yet), or in a cluster the shared Postgres ledger, which covers every instance.
 */
async function openReader(config: Config, dataDir: string, env: NodeJS.ProcessEnv): Promise<LedgerReader | undefined> {
  if (config.storage.kind !== 'cluster') return LedgerReader.open(ledgerDatabasePath(dataDir, config.ledger.database));
  const store = await openConfiguredLedgerStore({ storage: config.storage, dataDir, database: config.ledger.database, env });
  const reader = LedgerReader.over(store, { ownsStore: true });
  try {
    await reader.refresh();
  } catch (error) {
    await reader.close();
    throw error;
  }
  return reader;
}

/**
 * The frame of the insight reports: the shared report flags plus `--config` (prices, context windows and the
 * baseline come from the config's models), the configured ledger read-only, a friendly line when there is none.
 */
export async function runInsightReport(
  args: string[],
  context: CommandContext,
  report: { name: string; extraUsage?: string; empty: () => unknown; render: (run: InsightRun) => void | Promise<void> },
): Promise<number> {
  const usage = `Usage: hermes-router ${report.name} [options]\n\n${reportFlagsUsage}  --config FILE     config whose models give prices and context windows\n${report.extraUsage ?? ''}`;
  let options: ReportOptions;
  let configPath: string | undefined;
  try {
    const taken = takeConfigFlag(args);
    configPath = taken.configPath;
    options = parseReportOptions(taken.rest);
  } catch (error) {
    context.stderr.write(`${report.name}: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  if (options.help) {
    context.stdout.write(usage);
    return 0;
  }
  const loaded = commandConfig(report.name, { config: configPath, dataDir: options.dataDir }, context);
  if (typeof loaded === 'number') return loaded;
  const { dataDir, config } = loaded;
  let reader: LedgerReader | undefined;
  try {
    reader = await openReader(config, dataDir, context.env);
  } catch (error) {
    context.stderr.write(`${report.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (reader === undefined) {
    const path = ledgerDatabasePath(dataDir, config.ledger.database);
    if (options.json) context.stdout.write(`${JSON.stringify(report.empty())}\n`);
    else context.stdout.write(`No ledger at ${path} yet: the gateway creates it when it serves its first request.\n`);
    return 0;
  }
  try {
    await report.render({ reader, models: insightModelsFromConfig(config), config, options });
    return 0;
  } catch (error) {
    context.stderr.write(`${report.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await reader.close();
  }
}
