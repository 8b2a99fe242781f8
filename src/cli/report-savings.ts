import { overview } from '../insight/insight-views.js';
import type { SavingFigure } from '../insight/savings.js';
import type { Command } from './command.js';
import { cacheReadShare, formatCount, formatUsd, promptCacheLine } from './report-format.js';
import { runInsightReport } from './report-savings-frame.js';
import { renderTable, tableStyle } from './report-table.js';

interface SavingsLine {
  label: string;
  tokens: string;
  usd: string;
  note: string;
}

function line(label: string, figure: SavingFigure, unit: string): SavingsLine {
  return {
    label,
    tokens: formatCount(figure.tokens),
    usd: formatUsd(figure.usd),
    note: figure.unpriced > 0 ? `${formatCount(figure.unpriced)} ${unit} unpriced, left out` : '',
  };
}

/** `hermes-router report savings`: what tool routing, model routing and the prompt cache saved, and how. */
export const reportSavingsCommand: Command = {
  name: 'report savings',
  summary: 'What tool routing, model routing and the prompt cache saved (USD), with the method',
  run: (args, context) =>
    runInsightReport(args, context, {
      name: 'report savings',
      empty: () => ({ report: 'savings', savings: null, days: [] }),
      render({ reader, models, options }) {
        const view = overview(reader, models, options.filter, options.utcOffsetMinutes);
        if (options.json) {
          const cache = { readShare: cacheReadShare(view.totals), readTokens: view.totals.cacheReadTokens, writeTokens: view.totals.cacheWriteTokens };
          context.stdout.write(`${JSON.stringify({ report: 'savings', totals: view.totals, savings: view.savings, cache, days: view.days })}\n`);
          return;
        }
        const lines = [
          line('Tool schemas removed', view.savings.toolSchema, 'tokens'),
          line('Model routing (vs baseline)', view.savings.modelRouting, 'requests'),
          line('Prompt cache', view.savings.promptCache, 'requests'),
        ];
        const table = renderTable(
          [
            { header: 'Saving', cell: (row: SavingsLine) => row.label },
            { header: 'Tokens', align: 'right', cell: (row: SavingsLine) => row.tokens },
            { header: 'Saved (USD)', align: 'right', cell: (row: SavingsLine) => row.usd },
            { header: 'Note', shrink: true, cell: (row: SavingsLine) => row.note },
          ],
          lines,
          { label: 'Total', tokens: '', usd: formatUsd(view.savings.totalUsd), note: `spent ${formatUsd(view.totals.costUsd)} on ${formatCount(view.totals.requests)} requests` },
          tableStyle(context.stdout, context.env),
        );
        const methods = [
          `Tool schemas: ${view.savings.toolSchema.method}.`,
          `Model routing: ${view.savings.modelRouting.method}.`,
          `Prompt cache: ${view.savings.promptCache.method}.`,
        ];
        context.stdout.write(`${table}\n${promptCacheLine(view.totals)}\nHow each figure is computed:\n${methods.map((text) => `- ${text}`).join('\n')}\n`);
      },
    }),
};
