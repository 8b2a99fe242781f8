import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRequestRecord } from '../ledger-store.fixtures.js';
import { describeLedgerStoreContract } from '../ledger-store.contract.js';
import { PostgresLedgerStore } from './postgres-ledger-store.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from './postgres-test-support.js';

const available = await postgresAvailable();
if (!available) console.warn(`skipping the Postgres ledger contract: no server at ${postgresTestUrl}`);

describe.skipIf(!available)('postgres ledger store', () => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(schemas));
  describeLedgerStoreContract('postgres', () => {
    const schema = uniqueSchemaName('ledger');
    schemas.push(schema);
    return PostgresLedgerStore.open({ url: postgresTestUrl, schema });
  });

  it('facts: a batch committed after a later one (another instance) still reaches the feed', async () => {
    const schema = uniqueSchemaName('ledger');
    schemas.push(schema);
    const store = await PostgresLedgerStore.open({ url: postgresTestUrl, schema });
    const blocker = new pg.Client({ connectionString: postgresTestUrl });
    await blocker.connect();
    try {
      // An open transaction that took its id first, as a slow instance's batch would.
      await blocker.query('BEGIN');
      await blocker.query(`INSERT INTO "${schema}".requests (request_id, started_at, inbound_format, endpoint, requested_model, status, streaming, total_ms, overhead_ms, usage_estimated, attempt_count, decision_json)
        VALUES ('late', 1, 'openai-chat', '/v1/chat/completions', 'gpt-4o', 200, 0, 1, 1, 0, 0, '{}')`);
      await store.insertBatch([makeRequestRecord({ requestId: 'early' })]);
      const before = await store.factsSince();
      expect(before.complete).toBe(true);
      expect(before.facts.map((fact) => fact.requestId)).toEqual(['early']);
      await blocker.query('COMMIT');
      const after = await store.factsSince({ cursor: before.cursor });
      expect(after.facts.map((fact) => fact.requestId)).toContain('late');
      // A transaction left open (here, or anywhere on the server) holds the horizon back; what was sent is still
      // not sent again, so a quiet refresh costs one small query.
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_current_xact_id()');
      await store.insertBatch([makeRequestRecord({ requestId: 'while-open-1' })]);
      await store.insertBatch([makeRequestRecord({ requestId: 'while-open-2' })]);
      const during = await store.factsSince({ cursor: after.cursor, limit: 1 });
      const rest = await store.factsSince({ cursor: during.cursor, limit: 1 });
      expect([...during.facts, ...rest.facts].map((fact) => fact.requestId).filter((id) => id.startsWith('while-open'))).toEqual(['while-open-1', 'while-open-2']);
      const quiet = await store.factsSince({ cursor: rest.cursor });
      expect(quiet.facts).toEqual([]);
      await blocker.query('COMMIT');
    } finally {
      await blocker.end();
      await store.close();
    }
  });
});
