import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '../cluster/cluster-harness.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(level: 'info' | 'debug') {
  const captured = capturingLogger(level);
  harness = await startHarness(
    (url) => ({
      ...defaultConfig(url),
      providers: defaultConfig(url).providers?.map((provider) =>
        provider.id === 'local' ? { ...provider, models: [{ id: 'gpt-test', prices: { input: 1, output: 2 } }, { id: 'big-test', context_window: 200_000 }] } : provider,
      ),
    }),
    { logger: captured.logger },
  );
  const client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
  const requestLines = () => captured.lines.filter((line) => line.component === 'requests');
  return { harness, client, captured, requestLines };
}

describe('the gateway says what it is doing', () => {
  it('one info line per request: endpoint, model asked and served, status, tokens, cost, latency, session', async () => {
    const { harness: running, client, requestLines } = await start('info');
    await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'x-session-id': 'log-session-1' } });
    await running.observer.waitFor(1);
    const lines = requestLines();
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.level).toBe(30);
    expect(line).toMatchObject({
      method: 'POST',
      endpoint: '/v1/chat/completions',
      requestedModel: 'gpt-test',
      servedProvider: 'local',
      servedModel: 'gpt-test',
      status: 200,
      session: 'log-session-1',
    });
    expect(typeof line.inputTokens).toBe('number');
    expect(typeof line.totalMs).toBe('number');
    expect(line.costUsd).toBeGreaterThan(0);
    expect(String(line.msg)).toMatch(/^POST \/v1\/chat\/completions gpt-test → local\/gpt-test 200 \d+\+\d+ tokens \$\d\.\d{4} \d+ ms/);
    expect(String(line.msg)).toContain('session log-session-1');
    // info leaves out the routing decisions.
    expect(lines.some((entry) => entry.level === 20)).toBe(false);
  });

  it('an upstream failure and the failover are warnings; a client 502 is a warning too', async () => {
    const { harness: running, client, requestLines } = await start('info');
    running.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
    await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    await running.observer.waitFor(1);
    const warnings = requestLines().filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([expect.stringMatching(/^upstream local\/gpt-test failed: 503 upstream_server_error; failing over to local\/big-test$/)]);
    expect(requestLines().filter((line) => line.level === 30).map((line) => line.msg)).toEqual([expect.stringContaining('gpt-test → local/big-test 200')]);

    running.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 }, 'big-test': { kind: 'error', status: 503 } } });
    await expect(client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow();
    await running.observer.waitFor(2);
    const failedRequest = requestLines().filter((line) => line.level === 40 && String(line.msg).startsWith('POST'));
    expect(failedRequest).toHaveLength(1);
    expect(failedRequest[0]?.status).toBeGreaterThanOrEqual(500);
  });

  it('debug adds the routing decisions', async () => {
    const { harness: running, client, requestLines } = await start('debug');
    await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    await running.observer.waitFor(1);
    const debug = requestLines().filter((line) => line.level === 20);
    expect(debug).toHaveLength(1);
    expect(String(debug[0]?.msg)).toMatch(/models by \S+: .*candidates local\/gpt-test/);
    expect(debug[0]?.decision).toBeTruthy();
  });
});
