import { afterAll, describe, expect, it } from 'vitest';
import type { ProbeFile } from '../probes/probe-results.js';
import { describeProbeStoreContract } from '../probes/probe-store.contract.js';
import { MemoryChangeHub } from '../memory-change-announcements.js';
import { PostgresProbeStore } from './postgres-probe-store.js';
import type { PostgresProbeStoreOptions } from './postgres-probe-store.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from './postgres-test-support.js';

const available = await postgresAvailable();
if (!available) console.warn(`skipping the Postgres probe store contract: no server at ${postgresTestUrl}`);

describe.skipIf(!available)('postgres probe store', () => {
  const schemas: string[] = [];
  const stores: PostgresProbeStore[] = [];
  const open = (schema: string, options: Partial<PostgresProbeStoreOptions> = {}): PostgresProbeStore => {
    const store = new PostgresProbeStore({ url: postgresTestUrl, schema, maxConnections: 2, ...options });
    stores.push(store);
    return store;
  };
  const freshSchema = (): string => {
    const schema = uniqueSchemaName('probes');
    schemas.push(schema);
    return schema;
  };
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await dropSchemas(schemas);
  });

  describeProbeStoreContract('postgres', () => {
    const schema = freshSchema();
    return { store: open(schema), reopen: () => open(schema) };
  });

  it("an instance following the table hears another instance's merge through the announcement", async () => {
    const schema = freshSchema();
    const hub = new MemoryChangeHub();
    // The resync is an hour away: only the announcement can bring the change.
    const follower = open(schema, { changes: hub.member(), resyncIntervalMs: 3_600_000 });
    const writer = open(schema, { changes: hub.member() });
    await follower.start();
    const heard: ProbeFile[] = [];
    follower.onChange((probes) => heard.push(probes));
    await writer.merge('local/talker', { supportsTools: true, probedAt: '2026-11-30T08:00:00.000Z' });
    await expect.poll(() => heard.length, { timeout: 15_000, interval: 5 }).toBe(1);
    expect(follower.current().probes['local/talker']).toEqual({ supportsTools: true, probedAt: '2026-11-30T08:00:00.000Z' });
  });

  it('without an announcement the periodic resync brings the change, and an unchanged re-read is not reported', async () => {
    const schema = freshSchema();
    const follower = open(schema, { resyncIntervalMs: 50 });
    const writer = open(schema);
    await follower.start();
    const heard: ProbeFile[] = [];
    follower.onChange((probes) => heard.push(probes));
    await writer.merge('local/looker', { supportsVision: true, probedAt: '2026-11-30T08:00:00.000Z' });
    await expect.poll(() => heard.length, { timeout: 15_000, interval: 5 }).toBe(1);
    // Several more resyncs read the same rows: no further change is reported.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toHaveLength(1);
  });

  it('a merge while Postgres is unreachable rejects and says nothing was saved', async () => {
    const store = open(freshSchema(), { url: 'postgres://postgres@127.0.0.1:1/test', connectTimeoutMs: 500 });
    await expect(store.merge('local/talker', { supportsTools: true, probedAt: '2026-11-30T08:00:00.000Z' })).rejects.toThrow(
      /Could not store the probe result of local\/talker: the cluster's probe store \(Postgres\) is unreachable.*nothing was saved/,
    );
    await expect(store.start()).rejects.toThrow();
    expect(store.current()).toEqual({ version: 1, probes: {} });
  });
});
