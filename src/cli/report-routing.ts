import { summarizeRouting } from '../ledger/routing-summary.js';
import type { Command } from './command.js';
import { formatCount } from './report-format.js';
import { runReport } from './report-store.js';
import { renderTable, tableStyle } from './report-table.js';

interface CountLine {
  name: string;
  count: string;
}

function countTable(title: string, counts: Record<string, number>, style: ReturnType<typeof tableStyle>): string {
  const lines: CountLine[] = Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => ({ name, count: formatCount(count) }));
  if (lines.length === 0) return '';
  return renderTable(
    [
      { header: title, shrink: true, cell: (line: CountLine) => line.name },
      { header: 'Requests', align: 'right', cell: (line: CountLine) => line.count },
    ],
    lines,
    undefined,
    style,
  );
}

/** `hermes-router report routing`: what tool routing and model routing decided, from the ledger. */
export const reportRoutingCommand: Command = {
  name: 'report routing',
  summary: 'Tool surfaces, schema tokens saved, recoveries and model routes from the ledger',
  run: (args, context) =>
    runReport(args, context, {
      name: 'routing',
      empty: () => ({ report: 'routing', tools: null, models: null }),
      async render(store, options) {
        const summary = await summarizeRouting(store, options.filter);
        if (options.json) {
          context.stdout.write(`${JSON.stringify({ report: 'routing', ...summary })}\n`);
          return;
        }
        const style = tableStyle(context.stdout, context.env);
        const { tools, models } = summary;
        const header =
          `Requests: ${formatCount(tools.requests)} (${formatCount(tools.withTools)} with tools)\n` +
          `Tool schema tokens: ${formatCount(tools.sentSchemaTokens)} sent of ${formatCount(tools.fullSchemaTokens)} ` +
          `(${(tools.reduction * 100).toFixed(1)}% removed)\n` +
          `request_toolset recoveries: ${formatCount(tools.recoveries)} in ${formatCount(tools.requestsWithRecovery)} requests ` +
          `(recovery overhead: ${formatCount(tools.recoveryOverheadTokens)} tokens billed, not in the clients' usage); ` +
          `failovers: ${formatCount(models.failovers)}\n` +
          (models.priceCapped.requests > 0
            ? `max_price kept fallbacks out of ${formatCount(models.priceCapped.requests)} requests; ${formatCount(models.priceCapped.unserved)} of them were refused rather than sent to a dearer model\n`
            : '') +
          '\n';
        context.stdout.write(
          header +
            [
              countTable('Tool surface', tools.byOutcome, style),
              countTable('Reason', tools.byReason, style),
              countTable('Toolset on routed surfaces', tools.toolsets, style),
              countTable('Model policy', models.byPolicy, style),
              countTable('Served by', models.byServedModel, style),
              countTable('Fallback over max_price', models.priceCapped.refusedFallbacks, style),
            ]
              .filter(Boolean)
              .join('\n'),
        );
      },
    }),
};
