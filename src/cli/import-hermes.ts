import { join, resolve } from 'node:path';
import { planHermesImport, priceHermesRecords } from '../insight/hermes-import.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { deploymentPriceOverrides } from '../catalog/prices/deployment-prices.js';
import { hermesHome, openHermesState, readHermesUsage } from '../insight/hermes-state.js';
import { ledgerDatabasePath } from '../ledger/open-ledger.js';
import { SqliteLedgerStore } from '../store/sqlite/sqlite-ledger-store.js';
import { parseFlags } from './arguments.js';
import type { Command } from './command.js';
import { commandConfig } from './command-config.js';
import { formatCount } from './report-format.js';

const usage = `Usage: hermes-router import hermes [options]

Brings Hermes Agent sessions that did not pass through the gateway into the ledger (reports, dashboard).
Reads ~/.hermes/state.db strictly read-only; sessions Hermes ran through this gateway are skipped (the gateway
recorded them itself); sessions still open are imported once they end. Safe to run again.

Options:
  --hermes-home DIR   Hermes's home (default: $HERMES_HOME, insight.hermes_home, else ~/.hermes)
  --since DATE        only sessions started on or after this day (YYYY-MM-DD, UTC)
  --dry-run           show what would be imported, write nothing
  --config FILE       gateway config (its address tells which sessions came through it)
  --data-dir DIR      data directory holding the ledger
  --json              one JSON object on stdout
`;

/** `hermes-router import hermes`. */
export const importHermesCommand: Command = {
  name: 'import hermes',
  summary: "Import Hermes sessions that bypassed the gateway from ~/.hermes/state.db (read-only)",
  async run(args, context) {
    let values;
    try {
      values = parseFlags(args, {
        'hermes-home': { type: 'string' },
        since: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        config: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      }).values;
    } catch (error) {
      context.stderr.write(`import hermes: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
      return 2;
    }
    if (values.help) {
      context.stdout.write(usage);
      return 0;
    }
    let sinceMs = 0;
    if (values.since !== undefined) {
      sinceMs = Date.parse(`${values.since}T00:00:00Z`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(values.since) || Number.isNaN(sinceMs)) {
        context.stderr.write(`import hermes: --since wants YYYY-MM-DD, got "${values.since}"\n`);
        return 2;
      }
    }
    const loaded = commandConfig('import hermes', { config: values.config, dataDir: values['data-dir'] }, context);
    if (typeof loaded === 'number') return loaded;
    const { dataDir, config } = loaded;
    const home = hermesHome({ flag: values['hermes-home'] === undefined ? undefined : resolve(context.cwd, values['hermes-home']), configured: config.insight.hermes_home, env: context.env });
    const statePath = join(home, 'state.db');
    const state = openHermesState(statePath);
    if (state === undefined) {
      context.stderr.write(`import hermes: no Hermes state database at ${statePath} (use --hermes-home).\n`);
      return 1;
    }
    let rows;
    try {
      rows = readHermesUsage(state, sinceMs);
    } finally {
      state.close();
    }
    const { host, port } = config.server;
    const gatewayUrls = [`http://${host.includes(':') ? `[${host}]` : host}:${port}`];
    const plan = planHermesImport(rows, gatewayUrls);
    // Rows Hermes left without a cost get the config's price for their model, as the dashboard and reports show it.
    const pricedFromConfig = priceHermesRecords(plan.records, {
      overrides: { ...deploymentPriceOverrides(new ModelCatalog(config).deployments), ...config.ledger.prices },
      providerKinds: Object.fromEntries(config.providers.map((provider) => [provider.id, provider.kind])),
    });
    const ledgerPath = ledgerDatabasePath(dataDir, config.ledger.database);
    // How many rows are new: the store ignores a request id it already has, so a second run adds nothing.
    let added = plan.records.length;
    if (!values['dry-run'] && plan.records.length > 0) {
      const store = new SqliteLedgerStore({ path: ledgerPath });
      try {
        const before = (await store.totals({})).requests;
        await store.insertBatch(plan.records);
        added = (await store.totals({})).requests - before;
      } finally {
        await store.close();
      }
    }
    const summary = {
      command: 'import hermes',
      stateDb: statePath,
      ledger: ledgerPath,
      dryRun: values['dry-run'] === true,
      rowsRead: rows.length,
      imported: added,
      alreadyImported: plan.records.length - added,
      pricedFromConfig,
      skippedViaGateway: plan.skippedViaGateway,
      skippedRunning: plan.skippedRunning,
      skippedEmpty: plan.skippedEmpty,
      tokens: plan.records.reduce((total, record) => total + (record.usage?.inputTokens ?? 0) + (record.usage?.outputTokens ?? 0), 0),
    };
    if (values.json) {
      context.stdout.write(`${JSON.stringify(summary)}\n`);
      return 0;
    }
    const headline =
      !summary.dryRun && summary.imported === 0
        ? `Nothing new to import from ${statePath}${summary.alreadyImported > 0 ? ` (${formatCount(summary.alreadyImported)} session/model rows were imported before)` : ''}.\n`
        : `${summary.dryRun ? 'Would import' : 'Imported'} ${formatCount(summary.imported)} session/model rows (${formatCount(summary.tokens)} tokens) from ${statePath}` +
          `${summary.alreadyImported > 0 ? `; ${formatCount(summary.alreadyImported)} were imported before` : ''}.\n`;
    context.stdout.write(
      headline +
        (pricedFromConfig > 0 ? `${formatCount(pricedFromConfig)} row(s) without a Hermes cost were priced from the config's prices for their model.\n` : '') +
        `Skipped: ${formatCount(summary.skippedViaGateway)} already recorded through the gateway, ${formatCount(summary.skippedRunning)} still running, ${formatCount(summary.skippedEmpty)} without tokens.\n` +
        'Rows already imported are never counted twice; imported sessions appear as hermes:<id> in reports and the dashboard.\n',
    );
    return 0;
  },
};
