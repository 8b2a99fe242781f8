import type { InsightModels } from './insight-models.js';
import type { SessionStats } from './ledger-reader.js';

export type QualityGrade = 'S' | 'A' | 'B' | 'C' | 'D' | 'F';

/** One measured signal, the points it took off, and its cap. `value` is null when the signal was not measured. */
export interface QualitySignal {
  name: 'context_fill' | 'session_length' | 'output_ratio' | 'cache_hit_rate' | 'compactions' | 'failures' | 'failovers' | 'tool_recoveries';
  value: number | null;
  penalty: number;
  maximum: number;
  note: string;
}

export interface SessionQuality {
  sessionId: string;
  /** 0–100, or null when the session has nothing to score (no successful request with output). */
  score: number | null;
  grade: QualityGrade | null;
  /** Latest prompt over the served model's context window, 0–1 (can exceed 1 for an overflowing prompt). */
  contextFill: number | null;
  contextWindow: number | null;
  signals: QualitySignal[];
  /** Why there is no score, when there is none. */
  unscoredReason?: string;
}

const clamp01 = (value: number): number => Math.min(Math.max(value, 0), 1);

/** Linear from 0 points at `from` to `maximum` points at `to` (either direction). */
function ramp(value: number, from: number, to: number, maximum: number): number {
  return maximum * clamp01((value - from) / (to - from));
}

export function gradeFor(score: number): QualityGrade {
  if (score >= 95) return 'S';
  if (score >= 85) return 'A';
  if (score >= 70) return 'B';
  if (score >= 55) return 'C';
  if (score >= 40) return 'D';
  return 'F';
}

/**
 * The session quality score. 100 minus penalties from measured signals; a signal that was not measured takes
 * nothing off (it is reported with a null value) rather than being guessed. See ARCHITECTURE.md for the table.
 *
 * - context fill: the latest successful request's provider-reported prompt tokens over the served model's
 *   context window (config, probe or catalogue; never an assumed size): 0 points up to 50%, 40 points at 100%.
 * - session length (requests, each a turn of the agent loop): 0 up to 50, 20 points at 200.
 * - output/input ratio (output over all prompt tokens): 0 at 2% or more, 10 points at 0.2% or less.
 * - cache hit rate (cache-read over prompt tokens), only for sessions of 3+ requests averaging 2,048+ prompt
 *   tokens: 0 at 50% or more, 10 points at 0%.
 * - compactions detected (a prompt of 8,000+ tokens shrinking under 60% of itself): 5 points each, at most 10.
 * - failures (requests answered with an error): 15 points × the failed fraction.
 * - failovers that recovered: 1 point each, at most 5.
 * - tool-surface recoveries (a narrowed surface widened): 2 points each, at most 10.
 */
export function scoreSession(stats: SessionStats, models: InsightModels): SessionQuality {
  const window = stats.latestModel === null ? undefined : models.contextWindow(stats.latestProvider, stats.latestModel);
  const fill = window !== undefined && stats.latestInputTokens !== null ? stats.latestInputTokens / window : null;
  const base = { sessionId: stats.sessionId, contextFill: fill, contextWindow: window ?? null };
  if (stats.latestInputTokens === null) {
    return { ...base, score: null, grade: null, signals: [], unscoredReason: 'no successful request reported usage' };
  }
  if (stats.outputTokens === 0) {
    return { ...base, score: null, grade: null, signals: [], unscoredReason: 'no output tokens measured' };
  }
  const signals: QualitySignal[] = [];
  signals.push({
    name: 'context_fill',
    value: fill,
    penalty: fill === null ? 0 : ramp(fill, 0.5, 1, 40),
    maximum: 40,
    note:
      fill === null
        ? `context window of ${stats.latestModel ?? 'the served model'} unknown: set context_window on its model entry`
        : `${stats.latestInputTokens} prompt tokens of ${window}${stats.latestEstimated ? ' (estimated)' : ''}`,
  });
  signals.push({
    name: 'session_length',
    value: stats.requests,
    penalty: ramp(stats.requests, 50, 200, 20),
    maximum: 20,
    note: `${stats.requests} requests`,
  });
  const ratio = stats.inputTokens > 0 ? stats.outputTokens / stats.inputTokens : null;
  signals.push({
    name: 'output_ratio',
    value: ratio,
    penalty: ratio === null ? 0 : ramp(ratio, 0.02, 0.002, 10),
    maximum: 10,
    note: 'output tokens over prompt tokens',
  });
  const cacheEligible = stats.requests >= 3 && stats.inputTokens / stats.requests >= 2_048;
  const hitRate = stats.inputTokens > 0 ? stats.cacheReadTokens / stats.inputTokens : null;
  signals.push({
    name: 'cache_hit_rate',
    value: hitRate,
    penalty: cacheEligible && hitRate !== null ? ramp(hitRate, 0.5, 0, 10) : 0,
    maximum: 10,
    note: cacheEligible ? 'cache-read tokens over prompt tokens' : 'not scored: too few or too small requests to cache',
  });
  signals.push({
    name: 'compactions',
    value: stats.compactions,
    penalty: Math.min(stats.compactions * 5, 10),
    maximum: 10,
    note: 'prompt rewritten to a much smaller one',
  });
  signals.push({
    name: 'failures',
    value: stats.failedRequests,
    penalty: stats.requests > 0 ? (15 * stats.failedRequests) / stats.requests : 0,
    maximum: 15,
    note: `${stats.failedRequests} of ${stats.requests} requests failed`,
  });
  signals.push({
    name: 'failovers',
    value: stats.recoveredFailovers,
    penalty: Math.min(stats.recoveredFailovers, 5),
    maximum: 5,
    note: `${stats.failovers} needed another attempt, ${stats.recoveredFailovers} recovered`,
  });
  signals.push({
    name: 'tool_recoveries',
    value: stats.toolRecoveries,
    penalty: Math.min(stats.toolRecoveries * 2, 10),
    maximum: 10,
    note: 'narrowed tool surface widened on demand',
  });
  const penalties = signals.reduce((sum, signal) => sum + signal.penalty, 0);
  const score = Math.round(Math.min(Math.max(100 - penalties, 0), 100));
  return { ...base, score, grade: gradeFor(score), signals };
}

/** Sessions scored and ordered worst first (unscored last). */
export function scoreSessions(stats: readonly SessionStats[], models: InsightModels): (SessionQuality & { stats: SessionStats })[] {
  return stats
    .map((entry) => ({ ...scoreSession(entry, models), stats: entry }))
    .sort((left, right) => (left.score ?? 101) - (right.score ?? 101) || right.stats.lastStartedAt - left.stats.lastStartedAt);
}

export function gradeCounts(scored: readonly Pick<SessionQuality, 'grade'>[]): Record<QualityGrade | 'unscored', number> {
  const counts: Record<QualityGrade | 'unscored', number> = { S: 0, A: 0, B: 0, C: 0, D: 0, F: 0, unscored: 0 };
  for (const entry of scored) counts[entry.grade ?? 'unscored'] += 1;
  return counts;
}
