import { sessionCacheSummaries, surfaceChangeTotals, surfaceChanges } from '../insight/cache-costs.js';
import { overview, qualityView } from '../insight/insight-views.js';
import type { Overview } from '../insight/insight-views.js';
import type { Command } from './command.js';
import { cacheReadShare, formatCount, formatUsd, promptCacheLine, surfaceChangeLine } from './report-format.js';
import { sessionName } from './session-name.js';
import { mainPenalties } from './report-quality.js';
import { runInsightReport } from './report-savings-frame.js';

const dayMs = 86_400_000;

/** Midnight today at the report's offset, as epoch ms. */
function startOfDay(now: number, utcOffsetMinutes: number): number {
  const offsetMs = utcOffsetMinutes * 60_000;
  return Math.floor((now + offsetMs) / dayMs) * dayMs - offsetMs;
}

function periodLine(label: string, view: Overview): string {
  const totals = view.totals;
  const unpriced = totals.unpricedRequests > 0 ? ` (+${formatCount(totals.unpricedRequests)} unpriced)` : '';
  return `${label.padEnd(10)} ${formatCount(totals.requests).padStart(8)} requests  ${formatCount(totals.inputTokens + totals.outputTokens).padStart(12)} tokens  ${formatUsd(totals.costUsd).padStart(10)} spent${unpriced}  ${formatUsd(view.savings.totalUsd).padStart(10)} saved`;
}

/** `hermes-router summary`: one screen with today, the last 7 days, savings and the worst sessions. */
export const summaryCommand: Command = {
  name: 'summary',
  summary: 'One screen: today, this week, savings and the worst sessions',
  run: (args, context) =>
    runInsightReport(args, context, {
      name: 'summary',
      empty: () => ({ report: 'summary', today: null, week: null, worstSessions: [] }),
      render({ reader, models, options }) {
        const now = Date.now();
        const todayStart = startOfDay(now, options.utcOffsetMinutes);
        const weekStart = todayStart - 6 * dayMs;
        const base = { ...options.filter };
        const today = overview(reader, models, { ...base, since: Math.max(todayStart, base.since ?? 0) }, options.utcOffsetMinutes);
        const week = overview(reader, models, { ...base, since: Math.max(weekStart, base.since ?? 0) }, options.utcOffsetMinutes);
        const quality = qualityView(reader, models, { ...base, since: Math.max(weekStart, base.since ?? 0) }, { limit: 5, offset: 0 });
        const worst = quality.page.filter((entry) => entry.score !== null);
        const weekFilter = { ...base, since: Math.max(weekStart, base.since ?? 0) };
        const changes = surfaceChangeTotals(surfaceChanges(reader, models, weekFilter));
        const cacheBySession = new Map(sessionCacheSummaries(reader, models, weekFilter).map((entry) => [entry.sessionId, entry]));
        const labelsOf = (sessionId: string) => {
          const entry = cacheBySession.get(sessionId);
          return { title: entry?.title ?? null, firstPrompt: entry?.firstPrompt ?? null, agent: entry?.agent ?? null };
        };
        if (options.json) {
          context.stdout.write(
            `${JSON.stringify({
              report: 'summary',
              today: { totals: today.totals, savings: today.savings },
              week: { totals: week.totals, savings: week.savings, cacheReadShare: cacheReadShare(week.totals), surfaceChanges: changes, days: week.days },
              quality: { sessions: quality.sessions, grades: quality.grades, averageScore: quality.averageScore },
              worstSessions: worst.map((entry) => ({
                sessionId: entry.sessionId,
                ...labelsOf(entry.sessionId),
                score: entry.score,
                grade: entry.grade,
                contextFill: entry.contextFill,
                cacheSavedUsd: cacheBySession.get(entry.sessionId)?.cacheSavedUsd ?? 0,
                surfaceChanges: cacheBySession.get(entry.sessionId)?.surfaceChanges ?? 0,
                surfaceChangeCostUsd: cacheBySession.get(entry.sessionId)?.surfaceChangeCostUsd ?? 0,
                penalties: mainPenalties(entry),
              })),
            })}\n`,
          );
          return;
        }
        const savings = week.savings;
        const lines = [
          periodLine('Today', today),
          periodLine('7 days', week),
          '',
          `Saved in 7 days: ${formatUsd(savings.totalUsd)} = tool schemas ${formatUsd(savings.toolSchema.usd)} (${formatCount(savings.toolSchema.tokens)} tokens) + model routing ${formatUsd(savings.modelRouting.usd)} + prompt cache ${formatUsd(savings.promptCache.usd)}`,
          `${promptCacheLine(week.totals)}`,
          surfaceChangeLine(changes),
          `Sessions in 7 days: ${formatCount(quality.sessions)}, average score ${quality.averageScore === null ? '-' : quality.averageScore.toFixed(1)}; grades ${Object.entries(quality.grades).map(([grade, count]) => `${grade} ${count}`).join(' ')}`,
        ];
        if (worst.length > 0) {
          lines.push('', 'Worst sessions:');
          for (const entry of worst) {
            const cache = cacheBySession.get(entry.sessionId);
            const cacheNote = cache === undefined ? '' : `; cache saved ${formatUsd(cache.cacheSavedUsd)}${cache.surfaceChanges > 0 ? `, ${cache.surfaceChanges} surface change(s) ${formatUsd(cache.surfaceChangeCostUsd)}` : ''}`;
            lines.push(`  ${String(entry.score).padStart(3)} ${entry.grade ?? '-'}  ${sessionName(entry.sessionId, labelsOf(entry.sessionId))}  ${mainPenalties(entry)}${cacheNote}`);
          }
        }
        lines.push('', 'Details: hermes-router report savings | report quality | report daily; dashboard at /dashboard on the gateway.');
        context.stdout.write(`${lines.join('\n')}\n`);
      },
    }),
};
