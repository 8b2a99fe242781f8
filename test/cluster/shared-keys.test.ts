import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { postgresAvailable, postgresTestUrl } from '../../src/store/postgres/postgres-test-support.js';
import { redisAvailable, redisTestUrl } from '../../src/store/redis/redis-test-support.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { anthropicChat, bearer, call, openAiChat } from '../security/security-client.js';
import type { Answer } from '../security/security-client.js';
import { defaultConfig } from '../support/gateway-harness.js';
import { type ClusterPair, clusterAdminKey, startClusterPair, announcementWaitMs, within } from './cluster-harness.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the shared keys cluster test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const admin = bearer(clusterAdminKey);

describe.skipIf(!available)('application keys and their limits shared by two instances', () => {
  let pair: ClusterPair;
  let first: ConfiguredGateway;
  let second: ConfiguredGateway;

  beforeAll(async () => {
    // The resync is a minute away: whatever B learns within announcementWaitMs, it learned from A's announcement. Keys are
    // required even on this loopback bind, as behind a load balancer (else revoking the last key reopens chat).
    pair = await startClusterPair('keys_cluster', {
      resyncMs: 60_000,
      configure: (config) => ({ ...config, auth: { require_keys: 'always' } }),
    });
    ({ first, second } = pair);
  });
  afterAll(async () => {
    await pair?.close();
  });

  async function createKey(on: ConfiguredGateway, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
    const created = await call(`${on.url}/v1/admin/keys`, { method: 'POST', headers: admin, json: body });
    expect(created.status).toBe(201);
    return created.body as { id: string; key: string };
  }

  /** Polls a cheap authenticated read until the key is (or is no longer) accepted; returns the milliseconds. */
  function acceptedWithin(on: ConfiguredGateway, key: string, accepted: boolean): Promise<number> {
    return within(announcementWaitMs, async () => ((await call(`${on.url}/v1/models`, { headers: bearer(key) })).status === 200) === accepted);
  }

  it('a key created through A authenticates on B; revoked through B, A refuses it, each by announcement', async () => {
    const { id, key } = await createKey(first, { name: 'roaming', scopes: ['chat', 'models:read'] });
    const created = await acceptedWithin(second, key, true);
    console.info(`key created on A accepted by B after ${created.toFixed(1)} ms`);
    expect((await call(`${second.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    // B lists it too: it is in Postgres, not only in A's memory.
    const listed = (await call(`${second.url}/v1/admin/keys`, { headers: admin })).body as { keys: { id: string }[] };
    expect(listed.keys.map((listedKey) => listedKey.id)).toContain(id);

    expect((await call(`${second.url}/v1/admin/keys/${id}`, { method: 'DELETE', headers: admin })).status).toBe(200);
    const revoked = await acceptedWithin(first, key, false);
    console.info(`key revoked on B refused by A after ${revoked.toFixed(1)} ms`);
    const refused = await call(`${first.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { type: 'authentication_error' } });
  });

  it('requests_per_minute 3 admits three requests across A and B together, then 429 with Retry-After in each client format', async () => {
    const { key } = await createKey(first, { name: 'three a minute', scopes: ['chat', 'models:read'], limits: { requests_per_minute: 3 } });
    await acceptedWithin(second, key, true);
    const send = (on: ConfiguredGateway, anthropic: boolean): Promise<Answer> =>
      anthropic
        ? call(`${on.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': key }, json: anthropicChat })
        : call(`${on.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat });
    // Concurrent and spread over both instances: only one shared counter can hold this to three.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => send(index % 2 === 0 ? first : second, index % 4 >= 2)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited).toHaveLength(5);
    for (const answer of limited) {
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    const anthropicAnswer = await send(second, true);
    expect(anthropicAnswer.status).toBe(429);
    expect(anthropicAnswer.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    const openAiAnswer = await send(first, false);
    expect(openAiAnswer.status).toBe(429);
    expect(openAiAnswer.body).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
  });

  it('a daily token budget spent on A is spent on B', async () => {
    const { key } = await createKey(first, { name: 'one token a day', scopes: ['chat', 'models:read'], limits: { tokens_per_day: 1 } });
    await acceptedWithin(second, key, true);
    expect((await call(`${first.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status).toBe(200);
    // The tokens are added when A's request finished; B reads the same Redis total.
    await within(announcementWaitMs, async () => (await call(`${second.url}/v1/chat/completions`, { method: 'POST', headers: bearer(key), json: openAiChat })).status === 429);
  });

  it('the keys CLI edits the cluster\'s keys, not a local file: both instances follow by announcement', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'hermes-router-keys-cli-cluster-'));
    try {
      const configPath = join(directory, 'config.yaml');
      const storage = { kind: 'cluster', postgres_url: pair.endpoints.postgresUrl, redis_url: pair.endpoints.redisUrl, postgres_schema: pair.endpoints.schema, redis_key_prefix: pair.endpoints.keyPrefix };
      writeFileSync(configPath, JSON.stringify({ ...defaultConfig(pair.upstream.url), storage }));
      const run = async (...args: string[]): Promise<{ code: number; stdout: string }> => {
        const stdout = new PassThrough();
        let text = '';
        stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        const code = await main([...args, '--config', configPath, '--data-dir', directory, '--json'], { stdout, stderr: new PassThrough(), env: {}, cwd: directory });
        return { code, stdout: text };
      };
      const created = await run('keys', 'create', '--name', 'from the cli', '--scopes', 'chat,models:read');
      expect(created.code).toBe(0);
      const { id, key } = JSON.parse(created.stdout.trim()) as { id: string; key: string };
      const accepted = await Promise.all([acceptedWithin(first, key, true), acceptedWithin(second, key, true)]);
      console.info(`key created by the CLI accepted by both instances after ${Math.max(...accepted).toFixed(1)} ms`);
      expect((await run('keys', 'revoke', id)).code).toBe(0);
      await Promise.all([acceptedWithin(first, key, false), acceptedWithin(second, key, false)]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('exports the fail-open counter, at zero while Redis answers', async () => {
    const metrics = await call(`${first.url}/metrics`, { headers: admin });
    expect(metrics.text).toMatch(/^hermes_router_key_limit_fail_open_total 0$/m);
  });
});
