import { afterAll, describe } from 'vitest';
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
});
