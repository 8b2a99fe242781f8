import { parseConfig } from '../pipeline/load-config.js';
import type { Config } from '../config/schema.js';
import { cacheCostMethods, type SurfaceChange, sessionCacheSavings, surfaceChanges } from '../insight/cache-costs.js';
import { insightModelsFromConfig } from '../insight/insight-setup.js';
import { LedgerReader } from '../insight/ledger-reader.js';
import type { LedgerStore, LedgerTotals } from '../store/ledger-store.js';
import type { Command } from './command.js';
import { cacheReadShare, formatCount, formatTime, formatUsd, totalsColumns, totalsFootnotes } from './report-format.js';
import type { ReportOptions } from './report-options.js';
import { runReport } from './report-store.js';
import { renderTable, tableStyle } from './report-table.js';
import { sessionName } from './session-name.js';

interface SessionLine extends LedgerTotals {
  label: string;
  first: string;
  last: string;
  models: string[];
  cacheSaved: string;
  changes: string;
}

/** At most this many priced surface-change lines under the table; `--json` has every one. */
const changeLinesShown = 20;

interface SessionExtras {
  agent: string | null;
  title: string | null;
  firstPrompt: string | null;
  cacheSavedUsd: number;
  cacheSavingUnpricedRequests: number;
  surfaceChanges: SurfaceChange[];
  surfaceChangeCostUsd: number;
}

/**
 * What the ledger's rows say beyond the store's totals, from the insight copy of the same ledger: each session's
 * labels, what the prompt cache saved it and every change of its tool surface, priced with the config's prices.
 */
async function sessionExtras(store: LedgerStore, config: Config | undefined, options: ReportOptions): Promise<Map<string, SessionExtras>> {
  const reader = LedgerReader.over(store);
  try {
    await reader.refresh();
    const models = insightModelsFromConfig(config ?? parseConfig({}, 'the defaults'));
    const savings = sessionCacheSavings(reader, models, options.filter);
    const changes = surfaceChanges(reader, models, options.filter);
    const extras = new Map<string, SessionExtras>();
    for (const stats of reader.sessionStats(options.filter)) {
      const saving = savings.get(stats.sessionId);
      const mine = changes.filter((change) => change.sessionId === stats.sessionId);
      extras.set(stats.sessionId, {
        agent: stats.agent,
        title: stats.title,
        firstPrompt: stats.firstPrompt,
        cacheSavedUsd: saving?.savedUsd ?? 0,
        cacheSavingUnpricedRequests: saving?.unpricedRequests ?? 0,
        surfaceChanges: mine,
        surfaceChangeCostUsd: mine.reduce((total, change) => total + (change.costUsd ?? 0), 0),
      });
    }
    return extras;
  } finally {
    await reader.close();
  }
}

function changeLine(change: SurfaceChange, label: string, offset: number): string {
  const what = change.kind === 'anticipated' ? `grew by ${change.toolsets.join(', ')} before the call` : `request_toolset re-issue${change.recoveries > 1 ? ` ×${change.recoveries}` : ''}`;
  const cost = change.costUsd === null ? 'unpriced' : formatUsd(change.costUsd);
  return `  ${formatTime(change.startedAt, offset)}  ${label}: ${what}; ${formatCount(change.cacheWriteTokens)} tokens written, ${formatCount(change.uncachedInputTokens)} uncached: ${cost}`;
}

/** `hermes-router report sessions`: one row per agent session, most recently active first. */
export const reportSessionsCommand: Command = {
  name: 'report sessions',
  summary: 'Tokens, cost, prompt-cache saving and tool-surface changes per session from the ledger',
  run: (args, context) =>
    runReport(args, context, {
      name: 'sessions',
      empty: () => ({ report: 'sessions', rows: [], totals: null }),
      async render(store, options, config) {
        const rows = await store.sessions(options.filter);
        const totals = await store.totals(options.filter);
        const extras = await sessionExtras(store, config, options);
        const extraOf = (sessionId: string | null) => (sessionId === null ? undefined : extras.get(sessionId));
        const cacheSavedUsd = [...extras.values()].reduce((total, extra) => total + extra.cacheSavedUsd, 0);
        const changes = [...extras.values()].flatMap((extra) => extra.surfaceChanges);
        const changeCostUsd = changes.reduce((total, change) => total + (change.costUsd ?? 0), 0);
        if (options.json) {
          const withExtras = rows.map((row) => {
            const extra = extraOf(row.sessionId);
            return {
              ...row,
              cacheReadShare: cacheReadShare(row),
              agent: extra?.agent ?? null,
              title: extra?.title ?? null,
              firstPrompt: extra?.firstPrompt ?? null,
              cacheSavedUsd: extra?.cacheSavedUsd ?? 0,
              cacheSavingUnpricedRequests: extra?.cacheSavingUnpricedRequests ?? 0,
              surfaceChangeCostUsd: extra?.surfaceChangeCostUsd ?? 0,
              surfaceChanges: extra?.surfaceChanges ?? [],
            };
          });
          const summed = { ...totals, cacheReadShare: cacheReadShare(totals), cacheSavedUsd, surfaceChanges: changes.length, surfaceChangeCostUsd: changeCostUsd };
          context.stdout.write(`${JSON.stringify({ report: 'sessions', rows: withExtras, totals: summed, methods: cacheCostMethods })}\n`);
          return;
        }
        const offset = options.utcOffsetMinutes;
        const labels = new Map<string, string>();
        const lines: SessionLine[] = rows.map(({ sessionId, firstStartedAt, lastStartedAt, ...row }) => {
          const extra = extraOf(sessionId);
          const label = sessionId === null ? '(no session)' : sessionName(sessionId, extra);
          if (sessionId !== null) labels.set(sessionId, label);
          const changeCount = extra?.surfaceChanges.length ?? 0;
          return {
            ...row,
            label,
            first: formatTime(firstStartedAt, offset),
            last: formatTime(lastStartedAt, offset),
            cacheSaved: extra === undefined ? '' : `${formatUsd(extra.cacheSavedUsd)}${extra.cacheSavingUnpricedRequests > 0 ? ' *' : ''}`,
            changes: changeCount === 0 ? '0' : `${changeCount} ${formatUsd(extra?.surfaceChangeCostUsd ?? 0)}`,
          };
        });
        const table = renderTable(
          [
            { header: 'Session', shrink: true, cell: (line: SessionLine) => line.label },
            { header: 'First', dropOrder: 5, cell: (line: SessionLine) => line.first },
            { header: 'Last', dropOrder: -1, cell: (line: SessionLine) => line.last },
            ...totalsColumns<SessionLine>(),
            { header: 'Cache saved', align: 'right', dropOrder: 2, cell: (line: SessionLine) => line.cacheSaved },
            { header: 'Surface changes', align: 'right', dropOrder: 2, cell: (line: SessionLine) => line.changes },
            { header: 'Models', shrink: true, cell: (line: SessionLine) => line.models.join(', ') },
          ],
          lines,
          { ...totals, label: 'Total', first: '', last: '', models: [], cacheSaved: formatUsd(cacheSavedUsd), changes: `${changes.length} ${formatUsd(changeCostUsd)}` },
          tableStyle(context.stdout, context.env),
        );
        const changeLines =
          changes.length === 0
            ? ''
            : `\nTool-surface changes (tools come first in the prompt, so each change writes it again; priced: what it sent uncached, writes at the cache-write price):\n${changes
                .slice(-changeLinesShown)
                .map((change) => changeLine(change, labels.get(change.sessionId) ?? change.sessionId, offset))
                .join('\n')}\n${changes.length > changeLinesShown ? `  … ${changes.length - changeLinesShown} earlier (--json lists every one)\n` : ''}`;
        context.stdout.write(`${table}${totalsFootnotes(totals)}${changeLines}`);
      },
    }),
};
