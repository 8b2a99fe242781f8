import type { AttemptRecord, RequestRecord } from '../core/ledger-record.js';

/** A plausible successful request; tests override what they are about. */
export function makeRequestRecord(overrides: Partial<RequestRecord> = {}): RequestRecord {
  return {
    requestId: 'request-0',
    startedAt: Date.UTC(2026, 10, 20, 12, 0, 0),
    sessionId: 'session-a',
    clientKeyId: 'client-1',
    inboundFormat: 'openai-chat',
    endpoint: '/v1/chat/completions',
    requestedModel: 'gpt-4o',
    servedProvider: 'openai',
    servedModel: 'gpt-4o',
    status: 200,
    streaming: false,
    timeToFirstByteMs: 120,
    totalMs: 900,
    overheadMs: 3,
    usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 100, cacheWriteTokens: 0, reasoningTokens: 0 },
    usageEstimated: false,
    costUsd: 0.0045,
    decision: { models: { policy: 'fixed', reason: 'requested', candidates: [{ provider: 'openai', model: 'gpt-4o' }] } },
    attempts: [
      {
        provider: 'openai',
        model: 'gpt-4o',
        keyId: 'openai-key-1',
        startedAt: Date.UTC(2026, 10, 20, 12, 0, 0),
        durationMs: 890,
        status: 200,
      },
    ],
    ...overrides,
  };
}

/** Deterministic pseudo-random numbers, so a failing contract case can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * A varied ledger: several days (some rows near midnight UTC), sessions and no session, failures without usage,
 * failovers, unpriced and estimated rows, streaming, stored content.
 */
export function makeSampleRecords(count: number, seed = 7): RequestRecord[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const served = [
    { provider: 'openai', model: 'gpt-4o' },
    { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    { provider: 'local', model: 'my-local-model' },
    { provider: 'openrouter', model: 'gpt-4o' },
  ] as const;
  const records: RequestRecord[] = [];
  const base = Date.UTC(2026, 10, 18, 0, 0, 0);
  for (let index = 0; index < count; index += 1) {
    const startedAt = base + Math.floor(random() * 4 * 86_400_000);
    const target = pick(served);
    const failed = random() < 0.15;
    const failover = random() < 0.2;
    const estimated = !failed && random() < 0.2;
    const attempts: AttemptRecord[] = [];
    if (failover) {
      attempts.push({
        provider: 'openai',
        model: 'gpt-4o',
        keyId: 'openai-key-2',
        startedAt,
        durationMs: 50,
        status: 429,
        errorClass: 'rate_limited',
        errorMessage: 'slow down',
      });
    }
    attempts.push({
      provider: target.provider,
      model: target.model,
      keyId: `${target.provider}-key-1`,
      startedAt: startedAt + 60,
      durationMs: 100 + Math.floor(random() * 900),
      status: failed ? 503 : 200,
      ...(failed ? { errorClass: 'upstream_server_error' as const } : {}),
    });
    const inputTokens = 100 + Math.floor(random() * 5000);
    const cacheReadTokens = Math.floor(random() * inputTokens * 0.5);
    const record: RequestRecord = {
      requestId: `request-${String(index).padStart(5, '0')}`,
      startedAt,
      inboundFormat: random() < 0.5 ? 'openai-chat' : 'anthropic-messages',
      endpoint: '/v1/chat/completions',
      requestedModel: random() < 0.8 ? target.model : 'auto',
      status: failed ? 503 : 200,
      streaming: random() < 0.5,
      totalMs: 100 + Math.floor(random() * 2000) + random(),
      overheadMs: 1 + random() * 5,
      usageEstimated: estimated,
      costUsd: failed ? 0 : target.provider === 'local' ? null : Math.round(random() * 1e6) / 1e7,
      decision: { session: { id: `s-${index % 5}`, source: 'fingerprint' } },
      attempts,
    };
    if (index % 5 !== 4) record.sessionId = `session-${index % 5}`;
    if (index % 3 === 0) record.clientKeyId = 'client-1';
    if (!failed) {
      record.servedProvider = target.provider;
      record.servedModel = target.model;
      record.timeToFirstByteMs = 50 + Math.floor(random() * 400);
      record.usage = {
        inputTokens,
        outputTokens: Math.floor(random() * 800),
        cacheReadTokens,
        cacheWriteTokens: Math.floor(random() * (inputTokens - cacheReadTokens) * 0.3),
        reasoningTokens: Math.floor(random() * 50),
      };
    } else {
      record.errorClass = 'upstream_server_error';
    }
    if (index % 11 === 0) record.content = { request: { messages: [{ role: 'user', content: `hello ${index}` }] } };
    records.push(record);
  }
  return records;
}
