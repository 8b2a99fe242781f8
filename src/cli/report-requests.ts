import type { RequestRecord } from '../core/ledger-record.js';
import type { Command } from './command.js';
import { formatCount, formatMs, formatTime, formatUsd } from './report-format.js';
import { runReport } from './report-store.js';
import { type Column, renderTable, tableStyle } from './report-table.js';

const extraUsage = `  --limit N         rows per page, 1 to 1000 (default 50)
  --cursor TEXT     the next-page cursor printed by the previous page
`;

/** `hermes-router report requests`: one row per request, newest first, a page at a time. */
export const reportRequestsCommand: Command = {
  name: 'report requests',
  summary: 'Individual requests from the ledger, newest first',
  run: (args, context) =>
    runReport(args, context, {
      name: 'requests',
      paged: true,
      extraUsage,
      empty: () => ({ report: 'requests', items: [] }),
      async render(store, options) {
        const page = await store.requests({
          ...options.filter,
          ...(options.limit === undefined ? {} : { limit: options.limit }),
          ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
        });
        if (options.json) {
          context.stdout.write(`${JSON.stringify({ report: 'requests', ...page })}\n`);
          return;
        }
        const offset = options.utcOffsetMinutes;
        const columns: Column<RequestRecord>[] = [
          { header: 'Time', cell: (record) => formatTime(record.startedAt, offset) },
          { header: 'Request', dropOrder: 10, cell: (record) => record.requestId },
          { header: 'Session', shrink: true, dropOrder: 3, cell: (record) => record.sessionId ?? '' },
          { header: 'Model', shrink: true, cell: (record) => record.servedModel ?? `(${record.requestedModel})` },
          { header: 'Provider', dropOrder: 7, cell: (record) => record.servedProvider ?? '' },
          { header: 'Status', align: 'right', dropOrder: 4, cell: (record) => String(record.status) },
          { header: 'Error', dropOrder: 5, cell: (record) => record.errorClass ?? '' },
          { header: 'Attempts', align: 'right', dropOrder: 9, cell: (record) => String(record.attempts.length) },
          {
            header: 'Input',
            align: 'right',
            cell: (record) => (record.usage ? `${record.usageEstimated ? '~' : ''}${formatCount(record.usage.inputTokens)}` : '-'),
          },
          {
            header: 'Output',
            align: 'right',
            cell: (record) => (record.usage ? `${record.usageEstimated ? '~' : ''}${formatCount(record.usage.outputTokens)}` : '-'),
          },
          { header: 'Cost (USD)', align: 'right', cell: (record) => (record.costUsd === null ? 'unpriced *' : formatUsd(record.costUsd)) },
          { header: 'TTFB ms', align: 'right', dropOrder: 8, cell: (record) => formatMs(record.timeToFirstByteMs) },
          { header: 'Total ms', align: 'right', dropOrder: 6, cell: (record) => formatMs(record.totalMs) },
        ];
        context.stdout.write(renderTable(columns, page.items, undefined, tableStyle(context.stdout, context.env)));
        const notes: string[] = [];
        if (page.items.some((record) => record.usageEstimated)) notes.push('~ usage estimated: the provider reported none.');
        if (page.items.some((record) => record.costUsd === null)) notes.push('* no known price for the model; add it under ledger.prices.');
        if (page.nextCursor !== undefined) notes.push(`More: --cursor ${page.nextCursor}`);
        if (notes.length > 0) context.stdout.write(`\n${notes.join('\n')}\n`);
      },
    }),
};
