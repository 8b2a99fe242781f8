import { existsSync } from 'node:fs';
import { BudgetGuard } from '../budgets/budget-guard.js';
import type { BudgetStatus } from '../budgets/budget-guard.js';
import { rebuildBudgetsFromLedger } from '../budgets/budgets-from-ledger.js';
import { formatAmount } from '../budgets/messages.js';
import { ledgerDatabasePath } from '../ledger/open-ledger.js';
import { MemoryBudgetCounterStore } from '../store/memory/memory-budget-counter-store.js';
import { openConfiguredLedgerStore } from '../pipeline/stores/open-ledger-store.js';
import type { Command } from './command.js';
import { setupModelsCommand } from './models-setup.js';

const usage = `Usage: hermes-router budgets [--config FILE] [--data-dir DIR] [--json]

Every day and month budget under \`budgets:\` in the config: what the ledger says was spent against it, the
limit, and when it resets. Per-session budgets are one per session and are not listed.
`;

function row(status: BudgetStatus): string[] {
  const percent = `${Math.floor(status.fraction * 100)}%`;
  const state = status.state === 'exceeded' ? 'REFUSING' : status.state === 'warning' ? 'warning' : 'ok';
  return [status.label, status.windowId, formatAmount(status.unit, status.spent), formatAmount(status.unit, status.limit), percent, state, status.resetsAt ?? '-'];
}

function table(rows: string[][]): string {
  const header = ['budget', 'window', 'spent', 'limit', 'used', 'state', 'resets'];
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((cells) => (cells[column] ?? '').length)));
  return all.map((cells) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

/** `hermes-router budgets`: the configured budgets and their spend, from the ledger (SQLite, or Postgres in a cluster). */
export const budgetsCommand: Command = {
  name: 'budgets',
  summary: 'Budgets from the config with what was spent against each, from the ledger',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usage);
    if (typeof setup === 'number') return setup;
    const { config, dataDir, json } = setup;
    const counters = new MemoryBudgetCounterStore();
    const guard = new BudgetGuard({ config: config.budgets, store: counters, priceOf: () => 0, costOf: () => 0 });
    const cluster = config.storage.kind === 'cluster';
    if (guard.active && (cluster || existsSync(ledgerDatabasePath(dataDir, config.ledger.database)))) {
      const ledger = await openConfiguredLedgerStore({ storage: config.storage, dataDir, database: config.ledger.database, env: context.env });
      try {
        await rebuildBudgetsFromLedger(ledger, guard.rules, counters, {
          logger: { warn: (details, message) => context.stderr.write(`${message}: ${String(details.error)}\n`) },
        });
      } finally {
        await ledger.close();
      }
    }
    const statuses = await guard.status();
    if (json) {
      context.stdout.write(`${JSON.stringify({ report: 'budgets', softAt: config.budgets.soft_at, session: config.budgets.session ?? null, budgets: statuses })}\n`);
      return 0;
    }
    if (!guard.active) {
      context.stdout.write('No budgets configured. Add a `budgets:` section to the config (see the README, "Budgets").\n');
      return 0;
    }
    const lines = statuses.length > 0 ? [table(statuses.map(row))] : [];
    const session = config.budgets.session;
    if (session) lines.push(`Each session: ${[session.usd === undefined ? undefined : formatAmount('usd', session.usd), session.tokens === undefined ? undefined : formatAmount('tokens', session.tokens)].filter(Boolean).join(' and ')}.`);
    lines.push(`Warnings from ${Math.round(config.budgets.soft_at * 100)}% of a limit. Spent as the ledger has it (a running gateway also holds its requests in flight).`);
    context.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};
