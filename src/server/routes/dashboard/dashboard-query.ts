import { GatewayError } from '../../../core/errors.js';
import type { SessionQuery } from '../../../insight/ledger-reader.js';

const dayMs = 86_400_000;

/** A time bound from the query string: epoch ms or `YYYY-MM-DD` (UTC midnight). */
function parseTime(name: string, text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const time = Date.parse(`${text}T00:00:00Z`);
    if (!Number.isNaN(time)) return time;
  }
  throw new GatewayError('invalid_request', `${name} wants epoch milliseconds or YYYY-MM-DD, got "${text}".`);
}

function parseInteger(name: string, text: string | null, fallback: number, minimum: number, maximum: number): number {
  if (text === null || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    throw new GatewayError('invalid_request', `${name} wants a whole number from ${minimum} to ${maximum}, got "${text}".`);
  }
  return value;
}

export interface DashboardQuery {
  filter: SessionQuery;
  limit: number;
  offset: number;
  /** Minutes east of UTC for day buckets (the browser's zone). */
  utcOffsetMinutes: number;
  parameters: URLSearchParams;
}

/** The filters every dashboard API endpoint shares: `days` or `since`/`until`, `model`, `session`, `search`, paging. */
export function parseDashboardQuery(url: string, now = Date.now()): DashboardQuery {
  const parameters = new URL(url, 'http://dashboard.invalid').searchParams;
  const filter: SessionQuery = {};
  const days = parameters.get('days');
  // From the start of the current minute, so refreshes within a minute ask the same question (and hit the memo).
  if (days !== null && days !== '' && days !== 'all') filter.since = Math.floor(now / 60_000) * 60_000 - parseInteger('days', days, 30, 1, 3_650) * dayMs;
  const since = parameters.get('since');
  if (since) filter.since = parseTime('since', since);
  const until = parameters.get('until');
  if (until) filter.until = parseTime('until', until);
  const model = parameters.get('model');
  if (model) filter.model = model;
  const session = parameters.get('session');
  if (session) filter.session = session;
  const search = parameters.get('search');
  if (search) filter.search = search.slice(0, 200);
  return {
    filter,
    limit: parseInteger('limit', parameters.get('limit'), 50, 1, 500),
    offset: parseInteger('offset', parameters.get('offset'), 0, 0, 10_000_000),
    utcOffsetMinutes: parseInteger('tz', parameters.get('tz'), 0, -14 * 60, 14 * 60),
    parameters,
  };
}
