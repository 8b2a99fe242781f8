import type { LedgerTotals } from '../store/ledger-store.js';
import type { Command } from './command.js';
import { formatCount, formatMs, totalsColumns, totalsFootnotes } from './report-format.js';
import { runReport } from './report-store.js';
import { renderTable, tableStyle } from './report-table.js';

interface ModelLine extends LedgerTotals {
  provider: string;
  model: string;
  failovers: string;
  averageTotalMs: string;
  averageTimeToFirstByteMs: string;
  averageOverheadMs: string;
}

/** `hermes-router report models`: per served provider and model, most expensive first. */
export const reportModelsCommand: Command = {
  name: 'report models',
  summary: 'Tokens, cost, failovers and latency per model from the ledger',
  run: (args, context) =>
    runReport(args, context, {
      name: 'models',
      empty: () => ({ report: 'models', rows: [], totals: null }),
      async render(store, options) {
        const rows = await store.models(options.filter);
        const totals = await store.totals(options.filter);
        if (options.json) {
          context.stdout.write(`${JSON.stringify({ report: 'models', rows, totals })}\n`);
          return;
        }
        const lines: ModelLine[] = rows.map((row) => ({
          ...row,
          provider: row.provider ?? '(not served)',
          failovers: formatCount(row.failovers),
          averageTotalMs: formatMs(row.averageTotalMs),
          averageTimeToFirstByteMs: formatMs(row.averageTimeToFirstByteMs),
          averageOverheadMs: row.averageOverheadMs.toFixed(1),
        }));
        const failovers = rows.reduce((total, row) => total + row.failovers, 0);
        const table = renderTable(
          [
            { header: 'Provider', shrink: true, cell: (line: ModelLine) => line.provider },
            { header: 'Model', shrink: true, cell: (line: ModelLine) => line.model },
            ...totalsColumns<ModelLine>(),
            { header: 'Failovers', align: 'right', dropOrder: 5, cell: (line: ModelLine) => line.failovers },
            { header: 'Avg ms', align: 'right', dropOrder: 1, cell: (line: ModelLine) => line.averageTotalMs },
            { header: 'Avg TTFB ms', align: 'right', dropOrder: 6, cell: (line: ModelLine) => line.averageTimeToFirstByteMs },
            { header: 'Avg overhead ms', align: 'right', dropOrder: 7, cell: (line: ModelLine) => line.averageOverheadMs },
          ],
          lines,
          {
            ...totals,
            provider: 'Total',
            model: '',
            failovers: formatCount(failovers),
            averageTotalMs: '',
            averageTimeToFirstByteMs: '',
            averageOverheadMs: '',
          },
          tableStyle(context.stdout, context.env),
        );
        context.stdout.write(`${table}${totalsFootnotes(totals)}`);
      },
    }),
};
