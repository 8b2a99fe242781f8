import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { spawnGateway } from '../support/spawn-gateway.js';

const adminKey = 'shutdown-admin-key-0123456789abcdef';
let upstream: FakeUpstream;
let dataDir: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-shutdown-auth-'));
});
afterAll(async () => {
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('graceful shutdown with keys required', () => {
  it('SIGTERM lets an authenticated in-flight stream finish, refuses nothing it accepted, flushes its row with the key id, exits 0', async () => {
    const gateway = await spawnGateway(
      dataDir,
      {
        providers: [{ id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'sk-test', models: ['gpt-test'] }],
        ledger: { flush_interval_ms: 1_000 },
      },
      { HERMES_ROUTER_ADMIN_KEY: adminKey },
    );
    const created = await fetch(`${gateway.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'agent', scopes: ['chat'] }),
    });
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    const chat = (content: string, authorization?: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content }] }),
      });
    expect((await chat('no key')).status).toBe(401);
    upstream.enqueue({ kind: 'synthetic', chunkCount: 10, interChunkDelayMs: 60, stream: true });
    const inFlight = chat('slow', `Bearer ${key}`).then(async (response) => ({ status: response.status, text: await response.text() }));
    // In flight means the upstream has it (a fixed 150 ms could end before a loaded machine even sent it).
    await expect.poll(() => upstream.requests.some((request) => request.body.includes('"slow"')), { timeout: 15_000, interval: 10 }).toBe(true);
    gateway.child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('[DONE]');
    expect(await gateway.exited).toBe(0);
    const database = new Database(join(dataDir, 'ledger.sqlite'), { readonly: true });
    try {
      const rows = database.prepare('SELECT status, client_key_id FROM requests ORDER BY started_at').all() as { status: number; client_key_id: string | null }[];
      // The 401 is a refusal before any route ran: it is not a chat request and has no row.
      expect(rows).toEqual([{ status: 200, client_key_id: id }]);
    } finally {
      database.close();
    }
    // The key itself is nowhere in what the gateway stored.
    expect(JSON.stringify(database.name)).not.toContain(key);
  }, 60_000);
});
