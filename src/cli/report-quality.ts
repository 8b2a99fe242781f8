import { qualityView } from '../insight/insight-views.js';
import type { ScoredSession } from '../insight/insight-views.js';
import type { Command } from './command.js';
import { formatCount, formatTime, formatUsd } from './report-format.js';
import { runInsightReport } from './report-savings-frame.js';
import { renderTable, tableStyle } from './report-table.js';

function percent(value: number | null): string {
  return value === null ? '?' : `${Math.round(value * 100)}%`;
}

/** The signals that took the most points off, e.g. `context_fill −32, failures −7.5`. */
export function mainPenalties(session: ScoredSession, count = 2): string {
  if (session.score === null) return session.unscoredReason ?? '';
  return session.signals
    .filter((signal) => signal.penalty >= 0.5)
    .sort((left, right) => right.penalty - left.penalty)
    .slice(0, count)
    .map((signal) => `${signal.name} −${Math.round(signal.penalty * 10) / 10}`)
    .join(', ');
}

/** `hermes-router report quality`: every session scored 0–100 (S…F), worst first. */
export const reportQualityCommand: Command = {
  name: 'report quality',
  summary: 'Session quality scores (0-100, S to F) from measured context fill, length, cache and failures',
  run: (args, context) =>
    runInsightReport(args, context, {
      name: 'report quality',
      empty: () => ({ report: 'quality', sessions: 0, grades: null, rows: [] }),
      render({ reader, models, options }) {
        const view = qualityView(reader, models, options.filter, { limit: 50, offset: 0 });
        if (options.json) {
          context.stdout.write(
            `${JSON.stringify({ report: 'quality', sessions: view.sessions, grades: view.grades, averageScore: view.averageScore, rows: view.page })}\n`,
          );
          return;
        }
        const table = renderTable(
          [
            { header: 'Session', shrink: true, cell: (row: ScoredSession) => row.sessionId },
            { header: 'Last', dropOrder: -1, cell: (row: ScoredSession) => formatTime(row.stats.lastStartedAt, options.utcOffsetMinutes) },
            { header: 'Score', align: 'right', cell: (row: ScoredSession) => (row.score === null ? '-' : String(row.score)) },
            { header: 'Grade', cell: (row: ScoredSession) => row.grade ?? '-' },
            { header: 'Fill', align: 'right', dropOrder: 2, cell: (row: ScoredSession) => percent(row.contextFill) },
            { header: 'Requests', align: 'right', dropOrder: 1, cell: (row: ScoredSession) => formatCount(row.stats.requests) },
            { header: 'Cost', align: 'right', cell: (row: ScoredSession) => formatUsd(row.stats.costUsd) },
            { header: 'Main penalties', shrink: true, cell: (row: ScoredSession) => mainPenalties(row) },
          ],
          view.page,
          undefined,
          tableStyle(context.stdout, context.env),
        );
        const grades = Object.entries(view.grades)
          .map(([grade, count]) => `${grade} ${count}`)
          .join('  ');
        const average = view.averageScore === null ? '-' : view.averageScore.toFixed(1);
        context.stdout.write(
          `${table}\n${formatCount(view.sessions)} sessions, worst ${Math.min(view.page.length, 50)} shown. Grades: ${grades}. Average score ${average}.\n` +
            'Score = 100 minus penalties: context fill (latest prompt / real window) up to 40, length up to 20, output ratio 10, cache hit rate 10, compactions 10, failures 15, failovers 5, tool recoveries 10.\n',
        );
      },
    }),
};
