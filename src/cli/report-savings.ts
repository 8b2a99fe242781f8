import { cacheCostMethods, sessionCacheSummaries, surfaceChangeTotals, surfaceChanges } from '../insight/cache-costs.js';
import { overview } from '../insight/insight-views.js';
import type { SavingFigure } from '../insight/savings.js';
import type { Command } from './command.js';
import { cacheReadShare, formatCount, formatUsd, promptCacheLine, surfaceChangeLine } from './report-format.js';
import { runInsightReport } from './report-savings-frame.js';
import { renderTable, tableStyle } from './report-table.js';
import { sessionName } from './session-name.js';

/** Sessions listed under the savings table, by prompt-cache saving; `--json` lists every one. */
const sessionsShown = 5;

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
        const changes = surfaceChangeTotals(surfaceChanges(reader, models, options.filter));
        const sessions = sessionCacheSummaries(reader, models, options.filter);
        if (options.json) {
          const cache = { readShare: cacheReadShare(view.totals), readTokens: view.totals.cacheReadTokens, writeTokens: view.totals.cacheWriteTokens, savedUsd: view.savings.promptCache.usd };
          context.stdout.write(
            `${JSON.stringify({ report: 'savings', totals: view.totals, savings: view.savings, cache, surfaceChanges: { ...changes, method: cacheCostMethods.surfaceChange }, sessions, days: view.days })}\n`,
          );
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
          `Tool-surface change: ${cacheCostMethods.surfaceChange}.`,
        ];
        const perSession = sessions
          .filter((session) => session.cacheSavedUsd !== 0 || session.surfaceChanges > 0)
          .slice(0, sessionsShown)
          .map((session) => `  ${formatUsd(session.cacheSavedUsd).padStart(10)} saved, ${session.surfaceChanges} surface change(s) ${formatUsd(session.surfaceChangeCostUsd)}  ${sessionName(session.sessionId, session)}`);
        const sessionLines = perSession.length === 0 ? '' : `Prompt cache by session (largest saving first):\n${perSession.join('\n')}\n`;
        context.stdout.write(
          `${table}\n${promptCacheLine(view.totals)}\n${surfaceChangeLine(changes)}\n${sessionLines}How each figure is computed:\n${methods.map((text) => `- ${text}`).join('\n')}\n`,
        );
      },
    }),
};
