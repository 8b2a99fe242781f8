import type { LedgerFilter, UsageSums } from '../store/ledger-store.js';
import type { InsightModels } from './insight-models.js';
import type { LedgerReader, SessionQuery, SessionStats, UsageGroup } from './ledger-reader.js';
import { type SessionQuality, gradeCounts, scoreSessions } from './quality.js';
import { type SavingsSummary, addSavings, emptySavings, groupSavings } from './savings.js';

/** The store's sums without reasoning tokens, with how many requests had no price. */
export interface UsageTotals extends Omit<UsageSums, 'reasoningTokens'> {
  unpricedRequests: number;
}

export interface DayPoint extends UsageTotals {
  date: string;
  savingsUsd: number;
}

export interface Overview {
  totals: UsageTotals;
  savings: SavingsSummary;
  days: DayPoint[];
}

function emptyTotals(): UsageTotals {
  return { requests: 0, failedRequests: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, unpricedRequests: 0 };
}

function addGroup(totals: UsageTotals, group: UsageGroup): void {
  totals.requests += group.requests;
  totals.failedRequests += group.failedRequests;
  totals.inputTokens += group.inputTokens;
  totals.outputTokens += group.outputTokens;
  totals.cacheReadTokens += group.cacheReadTokens;
  totals.cacheWriteTokens += group.cacheWriteTokens;
  totals.costUsd += group.costUsd;
  if (!group.priced) totals.unpricedRequests += group.requests;
}

/** Totals, savings and a per-day series in one pass over the SQL groups. */
export function overview(reader: LedgerReader, models: InsightModels, filter: LedgerFilter, utcOffsetMinutes = 0): Overview {
  const groups = reader.usageGroups(filter, { byDay: true, utcOffsetMinutes });
  const totals = emptyTotals();
  const savings = emptySavings();
  const days = new Map<string, DayPoint>();
  for (const group of groups) {
    addGroup(totals, group);
    const saved = groupSavings(group, models);
    addSavings(savings, saved);
    let day = days.get(group.bucket);
    if (day === undefined) {
      day = { date: group.bucket, ...emptyTotals(), savingsUsd: 0 };
      days.set(group.bucket, day);
    }
    addGroup(day, group);
    day.savingsUsd += saved.totalUsd;
  }
  return { totals, savings, days: [...days.values()].sort((left, right) => left.date.localeCompare(right.date)) };
}

export type ScoredSession = SessionQuality & { stats: SessionStats };

export interface QualityView {
  sessions: number;
  grades: ReturnType<typeof gradeCounts>;
  averageScore: number | null;
  /** Sessions worst first, one page. */
  page: ScoredSession[];
  total: number;
}

/** Every session in the filter scored (the SQL returns one row per session), then one page, worst first. */
export function qualityView(
  reader: LedgerReader,
  models: InsightModels,
  query: SessionQuery,
  page: { limit: number; offset: number; order?: 'worst' | 'recent' },
): QualityView {
  const scored = scoreSessions(reader.sessionStats(query), models);
  if (page.order === 'recent') scored.sort((left, right) => right.stats.lastStartedAt - left.stats.lastStartedAt);
  const withScores = scored.filter((entry) => entry.score !== null);
  return {
    sessions: scored.length,
    grades: gradeCounts(scored),
    averageScore:
      withScores.length === 0 ? null : withScores.reduce((sum, entry) => sum + (entry.score ?? 0), 0) / withScores.length,
    page: scored.slice(page.offset, page.offset + page.limit),
    total: scored.length,
  };
}
