import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRoute } from '../../src/server/routes/dashboard/dashboard-route.js';
import type { LedgerFactsPage, LedgerFactsQuery } from '../../src/store/ledger-facts.js';
import { MemoryLedgerStore } from '../../src/store/memory/memory-ledger-store.js';
import { testModels } from '../insight/insight-fixture.js';
import { adminKey, seededRecords } from './dashboard-harness.js';

/** A store whose facts feed can be switched off, as the cluster's Postgres going away would. */
class FlakyStore extends MemoryLedgerStore {
  reachable = true;
  override async factsSince(query?: LedgerFactsQuery): Promise<LedgerFactsPage> {
    if (!this.reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return super.factsSince(query);
  }
}

describe('the dashboard over a ledger store (a cluster) instead of ledger.sqlite', () => {
  const store = new FlakyStore();
  const route = dashboardRoute({ ledgerPath: '/nonexistent/ledger.sqlite', ledgerStore: store, models: testModels(), env: { HERMES_ROUTER_ADMIN_KEY: adminKey } });
  const server = createServer((request, response) => {
    void route(request, response, new URL(request.url ?? '/', 'http://dashboard.test').pathname);
  });
  let url = '';
  const overview = async (): Promise<{ status: number; body: { totals?: { requests: number }; error?: { message: string } } }> => {
    const response = await fetch(`${url}/dashboard/api/overview?days=all`, { headers: { authorization: `Bearer ${adminKey}` } });
    return { status: response.status, body: (await response.json()) as { totals?: { requests: number }; error?: { message: string } } };
  };

  beforeAll(async () => {
    await store.insertBatch(seededRecords(300));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    route.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('shows the store\'s rows, new ones at the next call, says unavailable while the store is away, and recovers', async () => {
    expect((await overview()).body.totals?.requests).toBe(300);
    await store.insertBatch(seededRecords(20, Date.UTC(2026, 10, 25)).map((record) => ({ ...record, requestId: `new-${record.requestId}` })));
    expect((await overview()).body.totals?.requests).toBe(320);
    store.reachable = false;
    const away = await overview();
    expect(away.status).toBe(503);
    expect(away.body.error?.message).toMatch(/ledger cannot be read/);
    store.reachable = true;
    expect((await overview()).body.totals?.requests).toBe(320);
  });
});
