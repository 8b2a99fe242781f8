import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { postgresAvailable, postgresTestUrl } from '../../src/store/postgres/postgres-test-support.js';
import { redisAvailable, redisTestUrl } from '../../src/store/redis/redis-test-support.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { clusterAdminKey, type ClusterPair, postChat, startClusterPair } from './cluster-harness.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the shared dashboard cluster test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

/**
 * Prices on the fake models, so costs are numbers rather than "unpriced", and every request measured against
 * big-test, so each one served by gpt-test shows a model-routing saving.
 */
function priced(config: ConfigInput): ConfigInput {
  return {
    ...config,
    insight: { baseline_model: 'big-test' },
    providers: (config.providers ?? []).map((provider) =>
      provider.id !== 'local'
        ? provider
        : {
            ...provider,
            models: [
              { id: 'gpt-test', prices: { input: 1, output: 2, cache_read: 0.1, cache_write: 1.25 } },
              { id: 'big-test', context_window: 200_000, prices: { input: 10, output: 30, cache_read: 1, cache_write: 12.5 } },
            ],
          },
    ),
  };
}

interface OverviewBody {
  totals: { requests: number; costUsd: number; inputTokens: number; outputTokens: number };
  savings: { totalUsd: number };
}
interface SessionsBody {
  total: number;
  sessions: { sessionId: string; stats: { requests: number } }[];
}

async function dashboard<T>(baseUrl: string, view: string, parameters: Record<string, string> = {}): Promise<T> {
  const query = new URLSearchParams({ days: 'all', tz: '0', ...parameters });
  const response = await fetch(`${baseUrl}/dashboard/api/${view}?${query}`, { headers: { authorization: `Bearer ${clusterAdminKey}` } });
  if (!response.ok) throw new Error(`${view} on ${baseUrl}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

describe.skipIf(!available)('every instance of a cluster shows one dashboard over the shared Postgres ledger', () => {
  let pair: ClusterPair;
  let upstream: FakeUpstream;
  let first: ConfiguredGateway;
  let second: ConfiguredGateway;

  beforeAll(async () => {
    pair = await startClusterPair('dashboard_cluster', { configure: priced });
    ({ upstream, first, second } = pair);
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('requests served by A and by B appear, with the same totals, savings and sessions, on both dashboards', async () => {
    const ask = (content: string) => ({ model: 'gpt-test', messages: [{ role: 'user', content }] });
    const served = [
      await postChat(first.url, ask('first question on A'), { 'x-session-id': 'dashboard-session-a' }),
      await postChat(first.url, ask('second question on A'), { 'x-session-id': 'dashboard-session-a' }),
      await postChat(second.url, ask('first question on B'), { 'x-session-id': 'dashboard-session-b' }),
      await postChat(second.url, { ...ask('question on B for the big model'), model: 'big-test' }, { 'x-session-id': 'dashboard-session-b' }),
    ];
    for (const answer of served) expect(answer.status).toBe(200);
    await Promise.all([first.ledger.flush(), second.ledger.flush()]);

    const onFirst = await dashboard<OverviewBody>(first.url, 'overview');
    const onSecond = await dashboard<OverviewBody>(second.url, 'overview');
    expect(onFirst.totals.requests).toBe(served.length);
    expect(onFirst.totals.costUsd).toBeGreaterThan(0);
    expect(onFirst.savings.totalUsd).toBeGreaterThan(0);
    expect(onSecond.totals).toEqual(onFirst.totals);
    expect(onSecond.savings).toEqual(onFirst.savings);
    const quality = await Promise.all([first.url, second.url].map((url) => dashboard<{ sessions: number }>(url, 'quality')));
    expect(quality[0]?.sessions).toBe(2);
    expect(quality[1]).toEqual(quality[0]);

    for (const url of [first.url, second.url]) {
      const sessions = await dashboard<SessionsBody>(url, 'sessions');
      const requests = Object.fromEntries(sessions.sessions.map((entry) => [entry.sessionId, entry.stats.requests]));
      expect(requests, url).toEqual({ 'dashboard-session-a': 2, 'dashboard-session-b': 2 });
      const detail = await dashboard<{ timeline: { requestId: string }[] }>(url, 'session', { id: 'dashboard-session-b' });
      expect(detail.timeline.map((row) => row.requestId)).toEqual([served[2]?.requestId, served[3]?.requestId]);
    }
    const models = await Promise.all([first.url, second.url].map((url) => dashboard<{ models: unknown[] }>(url, 'models')));
    expect(models[1]).toEqual(models[0]);
  });

  it('a request served after the first view shows on both dashboards at the next refresh', async () => {
    const before = await dashboard<OverviewBody>(second.url, 'overview');
    const answer = await postChat(first.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'one more on A' }] }, { 'x-session-id': 'dashboard-session-c' });
    expect(answer.status).toBe(200);
    await first.ledger.flush();
    for (const url of [first.url, second.url]) {
      const after = await dashboard<OverviewBody>(url, 'overview');
      expect(after.totals.requests, url).toBe(before.totals.requests + 1);
    }
  });
});
