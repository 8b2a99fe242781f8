import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { defaultConfig } from '../support/gateway-harness.js';

let upstream: FakeUpstream;
let gateway: ConfiguredGateway;
let dataDir: string;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-ledger-'));
  const base = defaultConfig(upstream.url);
  const config = parseConfig({ ...base, server: { port: 0 }, ledger: { flush_interval_ms: 50 } }, 'test');
  gateway = await runConfiguredGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }) });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'x', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'x', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function storedRecord(requestId: string | null): Promise<RequestRecord> {
  await gateway.ledger.flush();
  const store = new SqliteLedgerStore({ path: join(dataDir, 'ledger.sqlite') });
  try {
    const page = await store.requests({ limit: 1000 });
    const record = page.items.find((item) => item.requestId === requestId);
    if (!record) throw new Error(`request ${requestId} is not in the ledger`);
    return record;
  } finally {
    await store.close();
  }
}

describe('the ledger behind the running gateway', () => {
  it('records provider usage from an OpenAI stream the client did not ask usage for', async () => {
    const { response, data: stream } = await openai.chat.completions
      .create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    for await (const chunk of stream) void chunk;
    const record = await storedRecord(response.headers.get('x-hermes-router-request-id'));
    expect(record.usageEstimated).toBe(false);
    expect(record.usage?.inputTokens).toBeGreaterThan(0);
    expect(record.streaming).toBe(true);
    expect(record.servedProvider).toBe('local');
    expect(record.attempts).toHaveLength(1);
    expect(record.attempts[0]?.keyId).toMatch(/^local#\d$/);
    expect(JSON.stringify(record)).not.toContain('sk-local');
  });

  it('records usage from Anthropic message_start/message_delta, and from a non-streamed body', async () => {
    const { response, data: message } = await anthropic.messages
      .create({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    const record = await storedRecord(response.headers.get('x-hermes-router-request-id'));
    expect(record.usage?.outputTokens).toBe(message.usage.output_tokens);
    const streamed = anthropic.messages.stream({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    const final = await streamed.finalMessage();
    const streamedId = (await streamed.withResponse()).response.headers.get('x-hermes-router-request-id');
    const streamedRecord = await storedRecord(streamedId);
    expect(streamedRecord.usage?.outputTokens).toBe(final.usage.output_tokens);
    expect(streamedRecord.usage?.inputTokens).toBe(final.usage.input_tokens + (final.usage.cache_read_input_tokens ?? 0) + (final.usage.cache_creation_input_tokens ?? 0));
  });

  it('estimates usage when the provider reports none, and marks the row', async () => {
    upstream.enqueue({ kind: 'synthetic', text: 'a short answer without usage', omitUsage: true, stream: true });
    const { response, data: stream } = await openai.chat.completions
      .create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'please answer briefly' }] })
      .withResponse();
    for await (const chunk of stream) void chunk;
    const record = await storedRecord(response.headers.get('x-hermes-router-request-id'));
    expect(record.usageEstimated).toBe(true);
    expect(record.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('keeps failed attempts, never bills them, and stores no prompt text by default beyond the session label', async () => {
    upstream.enqueue({ kind: 'error', status: 500 });
    const prompt = `secret prompt text ${'and a long question '.repeat(10)} tail the ledger never keeps`;
    const { response } = await openai.chat.completions
      .create({ model: 'gpt-test', messages: [{ role: 'user', content: prompt }] })
      .withResponse();
    const record = await storedRecord(response.headers.get('x-hermes-router-request-id'));
    expect(record.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(record.content).toBeUndefined();
    // The first prompt labels the session (ledger.session_labels): its first 120 characters, never the whole prompt.
    const label = record.decision.session?.firstPrompt ?? '';
    expect(prompt.startsWith(label.slice(0, -1))).toBe(true);
    expect(label.length).toBeLessThanOrEqual(120);
    expect(JSON.stringify(record)).not.toContain('tail the ledger never keeps');
    const { session, ...rest } = record.decision;
    expect(JSON.stringify({ ...record, decision: rest })).not.toContain('secret prompt text');
    expect(session?.id).toBe(record.sessionId);
  });

  it('serves /metrics in the Prometheus text format with the request counters', async () => {
    const response = await fetch(`${gateway.url}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const samples = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    for (const sample of samples) expect(sample).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? [-+0-9.eE]+|NaN|[+-]Inf$/);
    const requests = samples.filter((line) => line.startsWith('hermes_router_requests_total'));
    const total = requests.reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    expect(total).toBeGreaterThanOrEqual(5);
    expect(text).toContain('hermes_router_attempts_total');
  });
});
