import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PostgresLedgerStore } from '../../src/store/postgres/postgres-ledger-store.js';
import { postgresAvailable, postgresTestUrl } from '../../src/store/postgres/postgres-test-support.js';
import { redisAvailable, redisTestUrl } from '../../src/store/redis/redis-test-support.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { FakeUpstream, ReceivedRequest } from '../support/fake-upstream/index.js';
import { clusterAdminKey, type ClusterPair, postChat, startClusterPair, announcementWaitMs, within } from './cluster-harness.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the two-instance cluster test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const hermesTools = (
  JSON.parse(readFileSync(new URL('../fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as Record<string, unknown>[]
).map(({ toolset: _toolset, ...tool }) => tool);

function toolsBytes(request: ReceivedRequest | undefined): string {
  return JSON.stringify((request?.json as { tools?: unknown } | undefined)?.tools);
}

describe.skipIf(!available)('two gateway instances sharing Postgres and Redis', () => {
  let pair: ClusterPair;
  let upstream: FakeUpstream;
  let first: ConfiguredGateway;
  let second: ConfiguredGateway;
  const requestIds: { first: string[]; second: string[] } = { first: [], second: [] };

  beforeAll(async () => {
    pair = await startClusterPair('cluster');
    ({ upstream, first, second } = pair);
  });
  afterAll(async () => {
    await pair?.close();
  });
  beforeEach(() => upstream.reset());

  it('a session narrowed on A gets the byte-identical tool surface on B', async () => {
    const session = { 'x-session-id': 'cluster-session-1' };
    const messages = [{ role: 'user', content: 'run the unit tests in this repository and fix the failing ones' }];
    const onFirst = await postChat(first.url, { model: 'gpt-test', messages, tools: hermesTools }, session);
    expect(onFirst.status).toBe(200);
    const narrowed = upstream.requests.at(-1);
    expect(JSON.parse(toolsBytes(narrowed)).length).toBeLessThan(hermesTools.length);
    // B never saw this session itself: what it knows, it read from Redis. A saves the record when the request ends,
    // a few event-loop turns after its last byte (after the schema tokens are counted): wait for it to land.
    await within(announcementWaitMs, async () => (await second.gateway.sessions.get('cluster-session-1'))?.toolsets !== undefined);
    expect((await second.gateway.sessions.get('cluster-session-1'))?.toolsets).toEqual(
      (await first.gateway.sessions.get('cluster-session-1'))?.toolsets,
    );
    // A later turn the session's toolsets already serve (a new need would grow the surface: anticipation).
    const onSecond = await postChat(
      second.url,
      {
        model: 'gpt-test',
        messages: [...messages, { role: 'assistant', content: 'On it.' }, { role: 'user', content: 'thanks, now run them once more' }],
        tools: hermesTools,
      },
      session,
    );
    expect(onSecond.status).toBe(200);
    expect(toolsBytes(upstream.requests.at(-1))).toBe(toolsBytes(narrowed));
    requestIds.first.push(onFirst.requestId ?? '');
    requestIds.second.push(onSecond.requestId ?? '');
  });

  it('a session served on A is remembered on B as going where A sent it (affinity)', async () => {
    const session = { 'x-session-id': 'cluster-affinity-1' };
    const answer = await postChat(first.url, { model: 'claude-test', messages: [{ role: 'user', content: 'hello' }] }, session);
    expect(answer.status).toBe(200);
    // Affinity is part of the session record: one Redis key per session, read by whichever instance serves next.
    const servedOnFirst = (await first.gateway.sessions.get('cluster-affinity-1'))?.affinity?.deployment;
    expect(servedOnFirst).toBe('claude/claude-test');
    await within(announcementWaitMs, async () => (await second.gateway.sessions.get('cluster-affinity-1'))?.affinity?.deployment === servedOnFirst);
    requestIds.first.push(answer.requestId ?? '');
  });

  it('a model disabled through A\'s admin API is skipped by B by announcement', async () => {
    const response = await fetch(`${first.url}/v1/config/models/enabled`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clusterAdminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'local', model: 'gpt-test', enabled: false }),
    });
    expect(response.status).toBe(200);
    try {
      const elapsed = await within(announcementWaitMs, () => !second.gateway.switches.isEnabled({ qualifiedName: 'local/gpt-test' }));
      console.info(`model switch reached the other instance in ${elapsed.toFixed(1)} ms`);
      const answer = await postChat(second.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] });
      expect(answer.status).toBe(200);
      expect(upstream.requests.map((request) => request.model)).toEqual(['big-test']);
      requestIds.second.push(answer.requestId ?? '');
    } finally {
      await fetch(`${first.url}/v1/config/models/enabled`, {
        method: 'POST',
        headers: { authorization: `Bearer ${clusterAdminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'local', model: 'gpt-test', enabled: true }),
      });
      await within(announcementWaitMs, () => second.gateway.switches.isEnabled({ qualifiedName: 'local/gpt-test' }));
    }
  });

  it('a breaker opened by failures seen on A is open on B', async () => {
    upstream.setScript({ byModel: { 'claude-test': { kind: 'error', status: 503 } } });
    const claudeCalls = (): number => upstream.requests.filter((request) => request.model === 'claude-test').length;
    expect(second.gateway.breakers.state('claude/claude-test')).toBe('closed');
    for (let attempt = 0; attempt < 4 && first.gateway.breakers.state('claude/claude-test') !== 'open'; attempt += 1) {
      const sent = await postChat(first.url, { model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] });
      requestIds.first.push(sent.requestId ?? '');
    }
    expect(claudeCalls()).toBeGreaterThanOrEqual(1);
    expect(first.gateway.breakers.state('claude/claude-test')).toBe('open');
    const elapsed = await within(announcementWaitMs, () => second.gateway.breakers.state('claude/claude-test') === 'open');
    console.info(`open breaker reached the other instance in ${elapsed.toFixed(1)} ms`);
    const before = claudeCalls();
    const onSecond = await postChat(second.url, { model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] });
    // B did not spend a call on the deployment A found broken (it fails over or answers an error).
    expect(claudeCalls()).toBe(before);
    const metrics = await (await fetch(`${second.url}/metrics`)).text();
    expect(metrics).toMatch(/hermes_router_shared_state_available 1/);
    requestIds.second.push(onSecond.requestId ?? '');
  });

  it('ledger rows from both instances appear in one report', async () => {
    // A request's ledger row is written after its response has gone out (and, since surfaces are checkpointed, beside
    // a session write): wait for the requests to finish before flushing, as a drain does.
    await Promise.all([first.gateway.inFlight.whenIdle(5_000), second.gateway.inFlight.whenIdle(5_000)]);
    await Promise.all([first.ledger.flush(), second.ledger.flush()]);
    const report = await PostgresLedgerStore.open({ url: postgresTestUrl, schema: pair.endpoints.schema });
    try {
      const stored = new Set((await report.requests({ limit: 1000 })).items.map((record) => record.requestId));
      const expected = [...requestIds.first, ...requestIds.second];
      expect(requestIds.first.length).toBeGreaterThan(0);
      expect(requestIds.second.length).toBeGreaterThan(0);
      for (const requestId of expected) expect(stored.has(requestId)).toBe(true);
      expect((await report.totals()).requests).toBe(stored.size);
    } finally {
      await report.close();
    }
  });
});
