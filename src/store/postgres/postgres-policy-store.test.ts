import { afterAll, describe, expect, it } from 'vitest';
import { describePolicyStoreContract } from '../policy/policy-store.contract.js';
import { PolicyRevisionConflict } from '../policy/policy-store.js';
import { PostgresPolicyStore } from './postgres-policy-store.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from './postgres-test-support.js';

const available = await postgresAvailable();
if (!available) console.warn(`skipping the Postgres policy contract: no server at ${postgresTestUrl}`);

describe.skipIf(!available)('postgres policy store', () => {
  const schemas: string[] = [];
  const stores: PostgresPolicyStore[] = [];
  const open = (schema: string): PostgresPolicyStore => {
    const store = new PostgresPolicyStore({ url: postgresTestUrl, schema, maxConnections: 2 });
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await dropSchemas(schemas);
  });

  describePolicyStoreContract('postgres', () => {
    const schema = uniqueSchemaName('policy');
    schemas.push(schema);
    return { store: open(schema), reopen: () => open(schema) };
  });

  it('lets exactly one of many concurrent writers of the same revision win', async () => {
    const schema = uniqueSchemaName('policy');
    schemas.push(schema);
    const writers = Array.from({ length: 6 }, () => open(schema));
    await writers[0]?.ready();
    const outcomes = await Promise.allSettled(
      writers.map((store, index) =>
        store.save(
          { version: 1, revision: 1, models: { [`p/m${index}`]: { enabled: false, updatedAt: 't' } } },
          0,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(PolicyRevisionConflict);
    }
    const stored = await open(schema).load();
    expect(stored.revision).toBe(1);
    expect(Object.keys(stored.models)).toHaveLength(1);
  });
});

describe.skipIf(!available)('postgres migrations', () => {
  it('refuse a schema migrated by a newer hermes-router', async () => {
    const { applyPostgresMigrations, SchemaTooNewError } = await import('./postgres-migrations.js');
    const { createPostgresPool } = await import('./postgres-pool.js');
    const schema = uniqueSchemaName('newer');
    const pool = createPostgresPool({ url: postgresTestUrl, schema, maxConnections: 1 });
    try {
      const migration = { version: 1, name: 'one', sql: 'CREATE TABLE one (id INTEGER)' };
      const newer = { version: 2, name: 'two', sql: 'CREATE TABLE two (id INTEGER)' };
      expect(await applyPostgresMigrations(pool, schema, 'component', [migration, newer])).toBe(2);
      expect(await applyPostgresMigrations(pool, schema, 'component', [migration, newer])).toBe(2);
      await expect(applyPostgresMigrations(pool, schema, 'component', [migration])).rejects.toBeInstanceOf(SchemaTooNewError);
    } finally {
      await pool.end();
      await dropSchemas([schema]);
    }
  });
});
