import type { LedgerTotals } from '../store/ledger-store.js';
import type { Command } from './command.js';
import { cacheReadShare, formatTime, totalsColumns, totalsFootnotes } from './report-format.js';
import { runReport } from './report-store.js';
import { renderTable, tableStyle } from './report-table.js';

interface SessionLine extends LedgerTotals {
  label: string;
  first: string;
  last: string;
  models: string[];
}

/** `hermes-router report sessions`: one row per agent session, most recently active first. */
export const reportSessionsCommand: Command = {
  name: 'report sessions',
  summary: 'Tokens and cost per session from the ledger',
  run: (args, context) =>
    runReport(args, context, {
      name: 'sessions',
      empty: () => ({ report: 'sessions', rows: [], totals: null }),
      async render(store, options) {
        const rows = await store.sessions(options.filter);
        const totals = await store.totals(options.filter);
        if (options.json) {
          const withShare = rows.map((row) => ({ ...row, cacheReadShare: cacheReadShare(row) }));
          context.stdout.write(`${JSON.stringify({ report: 'sessions', rows: withShare, totals: { ...totals, cacheReadShare: cacheReadShare(totals) } })}\n`);
          return;
        }
        const offset = options.utcOffsetMinutes;
        const lines: SessionLine[] = rows.map(({ sessionId, firstStartedAt, lastStartedAt, ...row }) => ({
          ...row,
          label: sessionId ?? '(no session)',
          first: formatTime(firstStartedAt, offset),
          last: formatTime(lastStartedAt, offset),
        }));
        const table = renderTable(
          [
            { header: 'Session', shrink: true, cell: (line: SessionLine) => line.label },
            { header: 'First', dropOrder: 5, cell: (line: SessionLine) => line.first },
            { header: 'Last', dropOrder: -1, cell: (line: SessionLine) => line.last },
            ...totalsColumns<SessionLine>(),
            { header: 'Models', shrink: true, cell: (line: SessionLine) => line.models.join(', ') },
          ],
          lines,
          { ...totals, label: 'Total', first: '', last: '', models: [] },
          tableStyle(context.stdout, context.env),
        );
        context.stdout.write(`${table}${totalsFootnotes(totals)}`);
      },
    }),
};
