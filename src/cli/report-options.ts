import type { LedgerFilter } from '../store/ledger-store.js';
import { parseFlags } from './arguments.js';

export interface ReportOptions {
  filter: LedgerFilter;
  json: boolean;
  /** Cut days and print times in UTC instead of the local zone. */
  utc: boolean;
  /** Minutes east of UTC used for days: 0 with `--utc`, else the local offset now. */
  utcOffsetMinutes: number;
  dataDir: string | undefined;
  /** `--config`: read only for `storage:` (a cluster's ledger lives in Postgres). */
  config: string | undefined;
  limit: number | undefined;
  cursor: string | undefined;
  help: boolean;
}

export const reportFlagsUsage = `Options:
  --since WHEN      from this day (YYYY-MM-DD, YYYYMMDD, today, yesterday), span (7d = the last 7 days
                    counting today, 2w, 12h) or instant (ISO 8601), inclusive
  --until WHEN      to this day, inclusive, or to this instant (ISO 8601), exclusive
  --model NAME      only requests served by, or asking for, this model
  --session ID      only this session
  --utc             days and times in UTC (default: local time)
  --data-dir DIR    data directory (default: $HERMES_ROUTER_HOME, else ~/.hermes-router)
  --config FILE     the gateway's config, for a cluster's Postgres ledger (default: as \`start\` finds it)
  --json            one JSON object on stdout instead of the table
`;

const dayPattern = /^(\d{4})-?(\d{2})-?(\d{2})$/;
const relativePattern = /^(\d{1,4})([dhw])$/;

/** Midnight of the day `daysBack` before the one holding `now`, in the report's zone. */
function midnight(now: number, daysBack: number, utc: boolean): number {
  const at = new Date(now);
  return utc
    ? Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - daysBack)
    : new Date(at.getFullYear(), at.getMonth(), at.getDate() - daysBack).getTime();
}

/**
 * A day is the whole day in the report's zone: `--since D` starts at its midnight and `--until D` ends at the
 * next midnight, so `--since D --until D` is that one day. Days are `YYYY-MM-DD` or `YYYYMMDD` (as ccusage
 * takes them), `today` or `yesterday`. `Nd` is the last N days counting today (`7d`: from midnight six days
 * ago), `Nw` N weeks the same way, `Nh` the last N hours. An ISO instant is taken as given.
 */
export function parseReportTime(text: string, bound: 'since' | 'until', utc: boolean, now: number = Date.now()): number {
  const word = text.trim().toLowerCase();
  if (word === 'today' || word === 'yesterday') {
    const daysBack = word === 'today' ? 0 : 1;
    return midnight(now, bound === 'until' ? daysBack - 1 : daysBack, utc);
  }
  const relative = relativePattern.exec(word);
  if (relative) {
    const count = Number(relative[1]);
    if (relative[2] === 'h') return now - count * 3_600_000;
    const days = relative[2] === 'w' ? count * 7 : count;
    if (days === 0) throw new Error(`--${bound}: ${text} is an empty window`);
    // Since: from the first of the last N days. Until: up to that same day's start (it and later excluded).
    return midnight(now, days - 1, utc);
  }
  const day = dayPattern.exec(text);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]) - 1, Number(day[3])];
    const probe = new Date(Date.UTC(year, month, date));
    if (probe.getUTCMonth() !== month || probe.getUTCDate() !== date) throw new Error(`--${bound}: no such day ${text}`);
    const next = bound === 'until' ? date + 1 : date;
    return utc ? Date.UTC(year, month, next) : new Date(year, month, next).getTime();
  }
  const instant = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(instant)) {
    throw new Error(`--${bound} wants a day (YYYY-MM-DD, YYYYMMDD, today, yesterday), a span back from now (7d, 2w, 12h) or an ISO 8601 time such as 2026-11-30T08:00:00Z, got "${text}"`);
  }
  return instant;
}

/** Parses the flags every report shares (plus `--limit`/`--cursor` where `paged`). Throws with a readable message. */
export function parseReportOptions(args: string[], paged = false): ReportOptions {
  const { values, positionals } = parseFlags(args, {
    since: { type: 'string' },
    until: { type: 'string' },
    model: { type: 'string' },
    session: { type: 'string' },
    utc: { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
    config: { type: 'string' },
    json: { type: 'boolean', default: false },
    limit: { type: 'string' },
    cursor: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (positionals.length > 0) throw new Error(`unexpected argument: ${positionals.join(' ')}`);
  if (!paged && (values.limit !== undefined || values.cursor !== undefined)) {
    throw new Error('--limit and --cursor apply to `report requests` only');
  }
  const utc = values.utc === true;
  const filter: LedgerFilter = {};
  if (values.since !== undefined) filter.since = parseReportTime(values.since, 'since', utc);
  if (values.until !== undefined) filter.until = parseReportTime(values.until, 'until', utc);
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until) {
    throw new Error('--since must be before --until');
  }
  if (values.model !== undefined) filter.model = values.model;
  if (values.session !== undefined) filter.session = values.session;
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error(`--limit wants 1 to 1000, got "${values.limit}"`);
  }
  return {
    filter,
    json: values.json === true,
    utc,
    utcOffsetMinutes: utc ? 0 : -new Date().getTimezoneOffset(),
    dataDir: values['data-dir'],
    config: values.config,
    limit,
    cursor: values.cursor,
    help: values.help === true,
  };
}
