import { afterEach, describe, expect, it } from 'vitest';
import { parseReportOptions, parseReportTime } from './report-options.js';

describe('report options', () => {
  const originalZone = process.env.TZ;
  afterEach(() => {
    if (originalZone === undefined) delete process.env.TZ;
    else process.env.TZ = originalZone;
  });

  it('takes a day as the whole day: since at its midnight, until at the next', () => {
    expect(parseReportTime('2026-11-30', 'since', true)).toBe(Date.UTC(2026, 10, 30));
    expect(parseReportTime('2026-11-30', 'until', true)).toBe(Date.UTC(2026, 11, 1));
    expect(parseReportTime('2026-12-31', 'until', true)).toBe(Date.UTC(2027, 0, 1));
  });

  it('cuts local days in the local zone', () => {
    process.env.TZ = 'America/New_York';
    expect(parseReportTime('2026-07-01', 'since', false)).toBe(Date.UTC(2026, 6, 1, 4));
    expect(parseReportTime('2026-01-01', 'since', false)).toBe(Date.UTC(2026, 0, 1, 5));
    expect(parseReportOptions(['--since', '2026-07-01']).utcOffsetMinutes).toBe(-new Date().getTimezoneOffset());
  });

  it('takes an ISO instant as given and rejects anything else', () => {
    expect(parseReportTime('2026-11-30T08:15:00Z', 'since', false)).toBe(Date.UTC(2026, 10, 30, 8, 15));
    expect(parseReportTime('2026-11-30T08:15:00+02:00', 'until', true)).toBe(Date.UTC(2026, 10, 30, 6, 15));
    expect(() => parseReportTime('2026-02-29', 'since', true)).toThrow(/no such day/);
    expect(() => parseReportTime('30/11/2026', 'since', true)).toThrow(/YYYY-MM-DD/);
    expect(() => parseReportTime('2026-11-30 08:00', 'since', true)).toThrow(/ISO 8601/);
  });

  it('parses filters and refuses an empty window or paging flags on aggregates', () => {
    const options = parseReportOptions(['--since', '2026-11-01', '--until', '2026-11-02', '--utc', '--model', 'gpt-4o', '--session', 's1', '--json']);
    expect(options.filter).toEqual({ since: Date.UTC(2026, 10, 1), until: Date.UTC(2026, 10, 3), model: 'gpt-4o', session: 's1' });
    expect(options.json).toBe(true);
    expect(options.utcOffsetMinutes).toBe(0);
    expect(() => parseReportOptions(['--since', '2026-11-03', '--until', '2026-11-02', '--utc'])).toThrow(/before/);
    expect(() => parseReportOptions(['--cursor', 'abc'])).toThrow(/requests/);
    expect(parseReportOptions(['--limit', '10', '--cursor', 'abc'], true)).toMatchObject({ limit: 10, cursor: 'abc' });
    expect(() => parseReportOptions(['--limit', '0'], true)).toThrow(/1 to 1000/);
  });

  it('takes YYYYMMDD, today, yesterday and spans back from now (7d counts today)', () => {
    const now = Date.UTC(2026, 11, 1, 15, 30);
    expect(parseReportTime('20261130', 'since', true, now)).toBe(Date.UTC(2026, 10, 30));
    expect(parseReportTime('20261130', 'until', true, now)).toBe(Date.UTC(2026, 11, 1));
    expect(parseReportTime('today', 'since', true, now)).toBe(Date.UTC(2026, 11, 1));
    expect(parseReportTime('today', 'until', true, now)).toBe(Date.UTC(2026, 11, 2));
    expect(parseReportTime('yesterday', 'since', true, now)).toBe(Date.UTC(2026, 10, 30));
    expect(parseReportTime('yesterday', 'until', true, now)).toBe(Date.UTC(2026, 11, 1));
    expect(parseReportTime('7d', 'since', true, now)).toBe(Date.UTC(2026, 10, 25));
    expect(parseReportTime('1d', 'since', true, now)).toBe(Date.UTC(2026, 11, 1));
    expect(parseReportTime('2w', 'since', true, now)).toBe(Date.UTC(2026, 10, 18));
    expect(parseReportTime('12h', 'since', true, now)).toBe(now - 12 * 3_600_000);
    expect(() => parseReportTime('0d', 'since', true, now)).toThrow(/empty/);
    expect(() => parseReportTime('20261131', 'since', true, now)).toThrow(/no such day/);
    expect(() => parseReportTime('lastweek', 'since', true, now)).toThrow(/7d/);
    process.env.TZ = 'America/New_York';
    expect(parseReportTime('yesterday', 'since', false, now)).toBe(Date.UTC(2026, 10, 30, 5));
  });
});
