import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { spawnGateway } from '../support/spawn-gateway.js';

let upstream: FakeUpstream;
let dataDir: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-shutdown-last-byte-'));
});
afterAll(async () => {
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('shutdown right after a client got its last byte', () => {
  it('keeps the ledger open until the request has recorded itself (the provider lingers after [DONE])', async () => {
    const gateway = await spawnGateway(dataDir, {
      providers: [{ id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'sk-test', models: ['gpt-test'] }],
      ledger: { flush_interval_ms: 1_000 },
    });
    // After [DONE] the gateway reads the body to its end (keep-alive) before it records the request: the
    // client is done while the handler is not.
    upstream.enqueue({ kind: 'synthetic', chunkCount: 3, stream: true, lingerAfterLastEventMs: 150 });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(await response.text()).toContain('[DONE]');
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    const database = new Database(join(dataDir, 'ledger.sqlite'), { readonly: true });
    try {
      const rows = database.prepare('SELECT status, streaming FROM requests').all();
      expect(rows).toEqual([{ status: 200, streaming: 1 }]);
    } finally {
      database.close();
    }
  }, 60_000);
});
