import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { makeSampleRecords } from '../../src/store/ledger-store.fixtures.js';
import { PostgresLedgerStore } from '../../src/store/postgres/postgres-ledger-store.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { capturingLogger, clusterAdminKey, postChat, startInstance, within } from './cluster-harness.js';
import { TcpProxy } from './tcp-proxy.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the cluster outage tests: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const postgres = new URL(postgresTestUrl);
const redis = new URL(redisTestUrl);

describe.skipIf(!available)('outages of the cluster storage', () => {
  const schemas: string[] = [];
  const prefixes: string[] = [];
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
    await dropSchemas(schemas);
    await deleteKeyPrefixes(prefixes);
  });

  it('Redis down: requests keep flowing on local state, a warning is logged and /metrics shows it; back when Redis is', async () => {
    const proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.start();
    const endpoints = {
      postgresUrl: postgresTestUrl,
      redisUrl: `redis://127.0.0.1:${proxy.port}`,
      schema: uniqueSchemaName('outage'),
      keyPrefix: uniqueKeyPrefix('outage'),
    };
    schemas.push(endpoints.schema);
    prefixes.push(endpoints.keyPrefix);
    const { logger, lines } = capturingLogger();
    const { instance, close } = await startInstance(upstream.url, endpoints, { logger });
    try {
      const metric = async (): Promise<string | undefined> =>
        (await (await fetch(`${instance.url}/metrics`)).text()).match(/^hermes_router_shared_state_available (\d)/m)?.[1];
      expect(await metric()).toBe('1');
      const timed = async (label: string): Promise<number> => {
        const started = performance.now();
        for (let index = 0; index < 5; index += 1) {
          const answer = await postChat(instance.url, { model: 'gpt-test', messages: [{ role: 'user', content: `${label} ${index}` }] }, { 'x-session-id': `${label}-${index}` });
          expect(answer.status).toBe(200);
        }
        return (performance.now() - started) / 5;
      };
      const upMs = await timed('up');
      const linesBeforeOutage = lines.length;
      await proxy.stop();
      const downMs = await timed('down');
      console.info(`per request: ${upMs.toFixed(1)} ms with Redis up, ${downMs.toFixed(1)} ms with Redis down`);
      expect(instance.cluster?.health.available).toBe(false);
      expect(await metric()).toBe('0');
      // One line per outage, not one per failed command.
      const warnings = lines.slice(linesBeforeOutage).filter((line) => String(line.msg).includes('shared routing state unreachable'));
      expect(warnings, JSON.stringify(lines)).toHaveLength(1);
      // A breaker still opens on this instance's own failures while Redis is away.
      instance.gateway.breakers.record('claude/claude-test', false);
      instance.gateway.breakers.record('claude/claude-test', false);
      expect(instance.gateway.breakers.state('claude/claude-test')).toBe('open');

      await proxy.start();
      await within(15_000, async () => {
        await postChat(instance.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'back?' }] });
        return instance.cluster?.health.available === true;
      });
      expect(await metric()).toBe('1');
    } finally {
      await close();
      await proxy.stop();
    }
  });

  it('Postgres down at start: the instance serves with every model on, then adopts the saved policy when it returns', async () => {
    const schema = uniqueSchemaName('latestart');
    const keyPrefix = uniqueKeyPrefix('latestart');
    schemas.push(schema);
    prefixes.push(keyPrefix);
    // The policy another instance saved earlier: gpt-test off.
    const { PostgresPolicyStore } = await import('../../src/store/postgres/postgres-policy-store.js');
    const saved = new PostgresPolicyStore({ url: postgresTestUrl, schema });
    await saved.save({ version: 1, revision: 1, models: { 'local/gpt-test': { enabled: false, updatedAt: 't' } } }, 0);
    await saved.close();

    const proxy = new TcpProxy(postgres.hostname, Number(postgres.port || 5432));
    await proxy.start();
    const port = proxy.port;
    await proxy.stop();
    const url = new URL(postgresTestUrl);
    url.port = String(port);
    const { logger, lines } = capturingLogger();
    const { instance, close } = await startInstance(
      upstream.url,
      { postgresUrl: url.toString(), redisUrl: redisTestUrl, schema, keyPrefix },
      { logger, resyncMs: 100 },
    );
    try {
      expect(lines.some((line) => String(line.msg).startsWith('postgres unreachable at start'))).toBe(true);
      expect(instance.gateway.switches.isEnabled({ qualifiedName: 'local/gpt-test' })).toBe(true);
      // The policy fails open (every model on). Keys fail closed while they cannot be read (keys-fail-closed.test.ts),
      // so this request is the operator's.
      const served = await postChat(instance.url, { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, { authorization: `Bearer ${clusterAdminKey}` });
      expect(served.status).toBe(200);
      await proxy.start();
      await within(15_000, () => !instance.gateway.switches.isEnabled({ qualifiedName: 'local/gpt-test' }));
      await within(15_000, () => instance.ledger.backlog === 0);
    } finally {
      await close();
      await proxy.stop();
    }
  });

  it('Postgres down: ledger rows stay queued and are all written when it returns', async () => {
    const proxy = new TcpProxy(postgres.hostname, Number(postgres.port || 5432));
    await proxy.start();
    const schema = uniqueSchemaName('ledgeroutage');
    schemas.push(schema);
    const url = new URL(postgresTestUrl);
    url.port = String(proxy.port);
    const store = await PostgresLedgerStore.open({ url: url.toString(), schema, connectTimeoutMs: 500 });
    const ledger = new Ledger({ store, ownsStore: true, config: { flush_interval_ms: 20 } });
    const records = makeSampleRecords(120);
    try {
      ledger.record(records[0] ?? makeSampleRecords(1)[0]!);
      await within(15_000, () => ledger.backlog === 0);
      await proxy.stop();
      for (const record of records.slice(1)) ledger.record(record);
      await ledger.flush();
      expect(ledger.backlog).toBe(records.length - 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ledger.backlog).toBe(records.length - 1);
      await proxy.start();
      const elapsed = await within(10_000, () => ledger.backlog === 0);
      console.info(`ledger drained ${records.length - 1} queued rows ${elapsed.toFixed(0)} ms after Postgres returned`);
      const report = await PostgresLedgerStore.open({ url: postgresTestUrl, schema });
      try {
        expect((await report.totals()).requests).toBe(records.length);
      } finally {
        await report.close();
      }
    } finally {
      await ledger.close();
      await proxy.stop();
    }
  });
});
