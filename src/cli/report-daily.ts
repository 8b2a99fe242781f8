import type { DailyRow } from '../store/ledger-store.js';
import type { Command } from './command.js';
import { totalsColumns, totalsFootnotes } from './report-format.js';
import { runReport } from './report-store.js';
import { renderTable, tableStyle } from './report-table.js';

/** `hermes-router report daily`: tokens and cost per day, in local time unless `--utc`. */
export const reportDailyCommand: Command = {
  name: 'report daily',
  summary: 'Tokens and cost per day from the ledger',
  run: (args, context) =>
    runReport(args, context, {
      name: 'daily',
      empty: () => ({ report: 'daily', rows: [], totals: null }),
      async render(store, options) {
        const rows = await store.daily({ ...options.filter, utcOffsetMinutes: options.utcOffsetMinutes });
        const totals = await store.totals(options.filter);
        if (options.json) {
          context.stdout.write(`${JSON.stringify({ report: 'daily', utc: options.utc, rows, totals })}\n`);
          return;
        }
        const totalRow: DailyRow = { date: 'Total', models: [], ...totals };
        const table = renderTable(
          [
            { header: 'Date', cell: (row: DailyRow) => row.date },
            ...totalsColumns<DailyRow>(),
            { header: 'Models', shrink: true, cell: (row: DailyRow) => row.models.join(', ') },
          ],
          rows,
          totalRow,
          tableStyle(context.stdout, context.env),
        );
        context.stdout.write(`${table}${totalsFootnotes(totals)}`);
      },
    }),
};
