import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { adminKey, type DashboardHarness, seededRecords, startDashboardHarness } from './dashboard-harness.js';

const records = seededRecords(600);
let harness: DashboardHarness;

beforeAll(async () => {
  harness = await startDashboardHarness(records);
});
afterAll(async () => harness?.close());

const sum = (rows: readonly RequestRecord[], pick: (row: RequestRecord) => number): number => rows.reduce((total, row) => total + pick(row), 0);
const utcDay = (epoch: number): string => new Date(epoch).toISOString().slice(0, 10);

interface Totals {
  requests: number;
  failedRequests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  costUsd: number;
}

describe('dashboard API', () => {
  it('refuses the API without the admin key, serves the page with a strict CSP and no inline script', async () => {
    expect((await fetch(`${harness.url}/dashboard/api/overview`)).status).toBe(401);
    expect((await fetch(`${harness.url}/dashboard/api/overview`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const page = await fetch(`${harness.url}/dashboard`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    // Every <script> element loads a file; none carries code.
    expect(html.match(/<script[^>]*>([^<]*)<\/script>/g)?.every((tag) => /src="\/dashboard\/[a-z]+\.js"/.test(tag) && tag.endsWith('></script>'))).toBe(true);
    expect((await fetch(`${harness.url}/dashboard/app.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${harness.url}/dashboard/../package.json`)).status).toBe(404);
    expect((await fetch(`${harness.url}/dashboard/api/overview`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}` } })).status).toBe(405);
  });

  it('accepts a dashboard login cookie from /auth/login, and refuses it from a foreign origin', async () => {
    const login = await fetch(`${harness.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ admin_key: adminKey }) });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/=/);
    expect((await fetch(`${harness.url}/dashboard/api/overview`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${harness.url}/dashboard/api/overview`, { headers: { cookie, origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(`${harness.url}/dashboard/api/overview`, { headers: { cookie: 'hermes_router_session=forged' } })).status).toBe(401);
  });

  it('overview and daily totals equal sums over the inserted records', async () => {
    const overview = await harness.api<{ totals: Totals & { unpricedRequests: number }; days: (Totals & { date: string })[] }>('overview');
    expect(overview.totals.requests).toBe(records.length);
    expect(overview.totals.failedRequests).toBe(records.filter((row) => row.status >= 400).length);
    expect(overview.totals.inputTokens).toBe(sum(records, (row) => row.usage?.inputTokens ?? 0));
    expect(overview.totals.outputTokens).toBe(sum(records, (row) => row.usage?.outputTokens ?? 0));
    expect(overview.totals.cacheReadTokens).toBe(sum(records, (row) => row.usage?.cacheReadTokens ?? 0));
    expect(overview.totals.costUsd).toBeCloseTo(sum(records, (row) => row.costUsd ?? 0), 9);
    const daily = await harness.api<{ days: (Totals & { date: string })[] }>('daily');
    const expectedDays = [...new Set(records.map((row) => utcDay(row.startedAt)))].sort();
    expect(daily.days.map((day) => day.date)).toEqual(expectedDays);
    for (const day of daily.days) {
      const rows = records.filter((row) => utcDay(row.startedAt) === day.date);
      expect(day.requests).toBe(rows.length);
      expect(day.inputTokens).toBe(sum(rows, (row) => row.usage?.inputTokens ?? 0));
      expect(day.costUsd).toBeCloseTo(sum(rows, (row) => row.costUsd ?? 0), 9);
    }
  });

  it('pages through every session exactly once, each with its own sums, and shows its timeline', async () => {
    const sessionIds = [...new Set(records.map((row) => row.sessionId).filter((id): id is string => id !== undefined))].sort();
    const seen: string[] = [];
    for (let offset = 0; ; offset += 4) {
      const page = await harness.api<{ total: number; sessions: { sessionId: string; stats: Totals }[] }>('sessions', { limit: '4', offset: String(offset) });
      expect(page.total).toBe(sessionIds.length);
      if (page.sessions.length === 0) break;
      for (const session of page.sessions) {
        const rows = records.filter((row) => row.sessionId === session.sessionId);
        expect(session.stats.requests).toBe(rows.length);
        expect(session.stats.inputTokens).toBe(sum(rows, (row) => row.usage?.inputTokens ?? 0));
        expect(session.stats.costUsd).toBeCloseTo(sum(rows, (row) => row.costUsd ?? 0), 9);
        seen.push(session.sessionId);
      }
    }
    expect(seen.sort()).toEqual(sessionIds);
    const searched = await harness.api<{ total: number }>('sessions', { search: 'session-3' });
    expect(searched.total).toBe(1);
    const detail = await harness.api<{
      timeline: { requestId: string; inputTokens: number | null }[];
      session: { promptCache: { readShare: number | null; writeTokens: number; savedUsd: number } };
    }>('session', { id: 'session-3', limit: '500' });
    const rows = records.filter((row) => row.sessionId === 'session-3');
    expect(detail.timeline.map((row) => row.requestId)).toEqual(rows.map((row) => row.requestId));
    // The session page's prompt-cache card: share of input read from the cache and tokens written.
    const input = sum(rows, (row) => row.usage?.inputTokens ?? 0);
    expect(detail.session.promptCache.readShare).toBeCloseTo(sum(rows, (row) => row.usage?.cacheReadTokens ?? 0) / input, 9);
    expect(detail.session.promptCache.writeTokens).toBe(sum(rows, (row) => row.usage?.cacheWriteTokens ?? 0));
    expect(Number.isFinite(detail.session.promptCache.savedUsd)).toBe(true);
  });

  it('routing, quality, waste and models agree with the records', async () => {
    const routing = await harness.api<{ tools: { outcome: string; requests: number; recoveries: number }[]; fullSurfaceFallbacks: number; attemptErrors: { attempts: number }[] }>('routing');
    expect(routing.tools.reduce((total, row) => total + row.requests, 0)).toBe(records.length);
    expect(routing.fullSurfaceFallbacks).toBe(records.filter((row) => row.decision.tools?.outcome === 'full').length);
    expect(routing.tools.reduce((total, row) => total + row.recoveries, 0)).toBe(sum(records, (row) => row.decision.tools?.recoveries ?? 0));
    expect(routing.attemptErrors.reduce((total, row) => total + row.attempts, 0)).toBe(
      sum(records, (row) => row.attempts.filter((attempt) => attempt.status >= 400).length),
    );
    const quality = await harness.api<{ sessions: number; grades: Record<string, number> }>('quality');
    expect(Object.values(quality.grades).reduce((total, value) => total + value, 0)).toBe(quality.sessions);
    const waste = await harness.api<{ schemaOverheads: { sentSchemaTokens: number }[] }>('waste');
    const sent = waste.schemaOverheads.map((row) => row.sentSchemaTokens);
    expect(sent).toEqual([...sent].sort((left, right) => right - left));
    const models = await harness.api<{ models: { model: string; enabled: boolean; traffic: { requests: number } | null }[] }>('models');
    for (const model of ['big', 'cheap']) {
      expect(models.models.find((entry) => entry.model === model)?.traffic?.requests).toBe(records.filter((row) => row.servedModel === model).length);
    }
  });
});
