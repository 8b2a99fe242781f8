import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CircuitBreakers } from '../../src/dispatch/circuit-breaker.js';
import { Cooldowns } from '../../src/dispatch/cooldowns.js';
import { ManualClock } from '../../src/dispatch/test-support/scripted-dispatch.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness((url) => ({
    ...defaultConfig(url),
    resilience: { cooldown_ms: 200, retry_after_cap_ms: 300, breaker: { min_calls: 3, failure_rate: 0.5, window_ms: 10_000, open_ms: 400 } },
  }));
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(async () => {
  harness.upstream.reset();
  // Let cooldowns and open circuits from the previous test expire.
  await new Promise((resolve) => setTimeout(resolve, 450));
});

const ask = () => client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
const askStreaming = () => client.chat.completions.create({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hi' }] });

function upstreamModels(): (string | undefined)[] {
  return harness.upstream.requests.filter((request) => request.format !== undefined).map((request) => request.model);
}

describe('failover', () => {
  it('moves to the fallback model when the primary answers 503, and records both attempts', async () => {
    harness.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
    const before = harness.observer.records.length;
    const { response } = await ask().withResponse();
    expect(response.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect(response.headers.get('x-hermes-router-route')).toBe('fallback');
    expect(upstreamModels()).toEqual(['gpt-test', 'big-test']);
    const record = (await harness.observer.waitFor(before + 1)).at(-1);
    expect(record?.attempts.map((attempt) => [attempt.model, attempt.status, attempt.errorClass])).toEqual([
      ['gpt-test', 503, 'upstream_server_error'],
      ['big-test', 200, undefined],
    ]);
    expect(record?.servedModel).toBe('big-test');
  });

  it('on 429 rests that key and retries the same model on the next key', async () => {
    harness.upstream.enqueue({ kind: 'error', status: 429, retryAfter: 0.3 });
    const { response } = await ask().withResponse();
    expect(response.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    const keys = harness.upstream.requests.map((request) => request.headers.authorization);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('waits out a short retry-after-ms when every key is resting, then retries', async () => {
    harness.upstream.setScript({ byModel: { 'big-test': { kind: 'error', status: 503 } } });
    harness.upstream.enqueue({ kind: 'error', status: 429, retryAfterMs: 150 }, { kind: 'error', status: 429, retryAfterMs: 150 });
    const started = Date.now();
    const completion = await ask();
    expect(completion.choices[0]?.message.content).toBeTruthy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(upstreamModels().filter((model) => model === 'gpt-test').length).toBe(3);
  });

  it('disables a key after 401 and keeps serving with the other key', async () => {
    harness.upstream.setScript({
      respond: (request) => (request.headers.authorization === 'Bearer sk-local-a' ? { kind: 'error', status: 401 } : undefined),
    });
    for (let index = 0; index < 4; index += 1) await ask();
    const usedA = harness.upstream.requests.filter((request) => request.headers.authorization === 'Bearer sk-local-a').length;
    expect(usedA).toBeLessThanOrEqual(1);
  });

  it('moves a context-length 400 to a model with a larger window', async () => {
    harness.upstream.enqueue({ kind: 'error', status: 400, error: 'context-length', promptTokens: 9000, maxTokens: 8192 });
    const { response } = await ask().withResponse();
    expect(response.headers.get('x-hermes-router-model')).toBe('local/big-test');
  });

  it('returns a content-filter 400 without retrying', async () => {
    harness.upstream.enqueue({ kind: 'error', status: 400, error: 'content-filter' });
    await expect(ask()).rejects.toMatchObject({ status: 400 });
    expect(harness.upstream.requests).toHaveLength(1);
  });

  it('returns another 4xx to the client unchanged', async () => {
    harness.upstream.enqueue({ kind: 'error', status: 400, error: 'bad-request', message: 'unsupported parameter: foo' });
    const error = await ask().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('unsupported parameter: foo');
    expect(harness.upstream.requests).toHaveLength(1);
  });

  it('fails over a stream that resets before its first byte', async () => {
    harness.upstream.enqueue({ kind: 'reset' });
    const stream = await askStreaming();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(upstreamModels()).toEqual(['gpt-test', 'big-test']);
  });

  it('answers 502/504 in OpenAI format when every candidate fails', async () => {
    harness.upstream.setScript({ respond: { kind: 'error', status: 500 } });
    const error = await ask().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });
});

describe('circuit breaker', () => {
  it('opens the circuit of a failing model so later requests skip it, then lets traffic return', async () => {
    // The breakers and cooldowns read a clock the test moves: "requests four and five come within open_ms" must
    // not depend on how fast a loaded machine serves five requests (with the wall clock, a fifth request later
    // than 400 ms after the opening is, correctly, the half-open trial, and the count below becomes 4).
    const clock = new ManualClock();
    const fresh = await startHarness(
      (url) => ({
        ...defaultConfig(url),
        resilience: { cooldown_ms: 50, breaker: { min_calls: 3, failure_rate: 0.5, window_ms: 10_000, open_ms: 400 } },
      }),
      {
        stores: {
          createBreakers: (settings, onChange) => new CircuitBreakers(settings, clock.now, onChange),
          cooldowns: new Cooldowns(clock.now),
        },
      },
    );
    try {
      const freshClient = new OpenAI({ baseURL: fresh.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
      const freshAsk = () => freshClient.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
      fresh.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 500 } } });
      for (let index = 0; index < 5; index += 1) {
        await freshAsk();
        clock.advance(60); // past the key's 50 ms cooldown, far within the 400 ms the circuit stays open
      }
      const primaryCalls = fresh.upstream.requests.filter((request) => request.model === 'gpt-test').length;
      // min_calls 3 at a 50% failure rate: open after the third failure; requests four and five skip it.
      expect(primaryCalls).toBe(3);
      const health = (await (await fetch(`${fresh.gateway.url}/health`)).json()) as { circuits: { deployment: string }[] };
      expect(health.circuits.map((circuit) => circuit.deployment)).toContain('local/gpt-test');
      fresh.upstream.reset();
      clock.advance(450); // past open_ms: the next request is the half-open trial, which succeeds
      const { response } = await freshAsk().withResponse();
      expect(response.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    } finally {
      await fresh.close();
    }
  });
});
