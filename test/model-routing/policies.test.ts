import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { randomUUID } from 'node:crypto';
import { chat as chatWithHeaders } from './admin-client.js';
import { easyPrompt, hardPrompt, mixedConfig, tinyPng, weatherTool } from './routing-config.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness((url) => mixedConfig(url));
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

async function lastDecision() {
  const records = await harness.observer.waitFor(harness.observer.records.length);
  return records.at(-1)?.decision.models;
}

/** Each call its own session unless the test names one, so affinity from one test never steers another. */
function chat(baseUrl: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return chatWithHeaders(baseUrl, body, { 'x-hermes-session-affinity': randomUUID(), ...headers });
}

function user(text: string) {
  return [{ role: 'user', content: text }];
}

describe('cheapest capable', () => {
  it('sends an easy question to the cheapest model and says why', async () => {
    const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt) });
    expect(result.status).toBe(200);
    expect(result.headers.get('x-hermes-router-model')).toBe('local/cheap-small');
    expect(result.headers.get('x-hermes-router-route')).toBe('cheapest-capable');
    const decision = await lastDecision();
    expect(decision?.difficulty).toBe(5);
    expect(decision?.policy).toBe('auto:cheapest-capable:topic:workload-hint:affinity');
    expect(decision?.reason).toMatch(/cheapest local\/cheap-small tier 4/);
    // Embedding models never answer chat.
    expect(decision?.candidates.map((candidate) => candidate.model)).not.toContain('embed-test');
  });

  it('climbs to the strong model for a hard request, keeping weaker ones as failover', async () => {
    const result = await chat(harness.gateway.url, { model: 'auto', messages: user(hardPrompt) });
    expect(result.headers.get('x-hermes-router-model')).toBe('local/strong');
    const decision = await lastDecision();
    expect(decision?.difficulty).toBe(1);
    expect(decision?.candidates[0]?.model).toBe('strong');
    expect(decision?.candidates.length).toBeGreaterThan(1);
  });

  it('fails over to the next candidate when the cheapest errors, and the route says fallback', async () => {
    harness.upstream.setScript({ byModel: { 'cheap-small': { kind: 'error', status: 503 } } });
    const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: user('What is the capital of Peru?') });
    expect(result.status).toBe(200);
    expect(harness.upstream.requests[0]?.model).toBe('cheap-small');
    expect(result.headers.get('x-hermes-router-model')).not.toBe('local/cheap-small');
    expect(result.headers.get('x-hermes-router-route')).toBe('fallback');
  });
});

describe('capability filters', () => {
  it('tools: skips models whose tool support is unknown when others are known to have it', async () => {
    const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt), tools: [weatherTool] });
    expect(result.status).toBe(200);
    const decision = await lastDecision();
    expect(decision?.candidates.map((candidate) => candidate.model)).not.toContain('mystery-model');
    expect(decision?.skipped).toContainEqual({ provider: 'local', model: 'mystery-model', reason: 'tool calling unknown while others have it' });
  });

  it('images: only vision models, never one known to lack it', async () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: tinyPng } }] }];
    const result = await chat(harness.gateway.url, { model: 'hermes-router', messages });
    expect(result.headers.get('x-hermes-router-model')).toBe('local/mid');
    const decision = await lastDecision();
    expect(decision?.skipped).toContainEqual({ provider: 'local', model: 'cheap-small', reason: 'no vision' });
    expect(harness.upstream.requests.map((request) => request.model)).toEqual(['mid']);
  });

  it('a named model with unknown capability is still tried (the client chose it), a known lack is not', async () => {
    const result = await chat(harness.gateway.url, { model: 'mystery-model', messages: user('hi'), tools: [weatherTool] });
    expect(result.headers.get('x-hermes-router-model')).toBe('local/mystery-model');
    expect(result.headers.get('x-hermes-router-route')).toBe('explicit');
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: tinyPng } }] }];
    const named = await chat(harness.gateway.url, { model: 'cheap-small', messages });
    expect(named.headers.get('x-hermes-router-model')).toBe('local/mid');
    expect(named.headers.get('x-hermes-router-route')).toBe('default');
  });

  it('context: a prompt larger than a window skips that model before any call', async () => {
    const long = `Summarise this. ${'lorem ipsum dolor sit amet '.repeat(1_600)}`;
    const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(long) });
    expect(result.status).toBe(200);
    expect(harness.upstream.requests.map((request) => request.model)).not.toContain('cheap-small');
    const decision = await lastDecision();
    expect(decision?.skipped?.find((entry) => entry.model === 'cheap-small')?.reason).toMatch(/context window 8000/);
  });
});

describe('workload hint', () => {
  it('planning puts a reasoning model first even for an easy-looking turn', async () => {
    const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt) }, { 'x-hermes-workload-hint': 'planning' });
    expect(result.headers.get('x-hermes-router-model')).toBe('local/strong');
    expect(result.headers.get('x-hermes-router-route')).toBe('workload-hint');
  });

  it('general and unknown hints change nothing', async () => {
    for (const hint of ['general', 'astrology']) {
      const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt) }, { 'x-hermes-workload-hint': hint });
      expect(result.headers.get('x-hermes-router-model')).toBe('local/cheap-small');
    }
    const decision = await lastDecision();
    expect(decision?.steps?.find((step) => step.policy === 'workload-hint')?.reason).toBe('hint "astrology" changes nothing');
  });

  it('vision without an image changes nothing', async () => {
    const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt) }, { 'x-hermes-workload-hint': 'vision' });
    expect(result.headers.get('x-hermes-router-model')).toBe('local/cheap-small');
  });
});

describe('session affinity', () => {
  it('keeps a session on the model that last answered it, and still fails over', async () => {
    const session = { 'x-hermes-session-affinity': `s-${Date.now()}` };
    // First turn: a planning hint sends it to the strong model, which becomes the session's model.
    const first = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt) }, { ...session, 'x-hermes-workload-hint': 'planning' });
    expect(first.headers.get('x-hermes-router-model')).toBe('local/strong');
    const second = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt) }, session);
    expect(second.headers.get('x-hermes-router-model')).toBe('local/strong');
    expect(second.headers.get('x-hermes-router-route')).toBe('affinity');
    // Another session is not affected.
    const other = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt) }, { 'x-hermes-session-affinity': 'other' });
    expect(other.headers.get('x-hermes-router-model')).toBe('local/cheap-small');
    // The session's model failing: failover still applies.
    harness.upstream.setScript({ byModel: { strong: { kind: 'error', status: 500 } } });
    const third = await chat(harness.gateway.url, { model: 'hermes-router', messages: user(easyPrompt) }, session);
    expect(third.status).toBe(200);
    expect(third.headers.get('x-hermes-router-model')).not.toBe('local/strong');
    expect(harness.upstream.requests.map((request) => request.model).slice(-2)[0]).toBe('strong');
  });
});

describe('tool loop', () => {
  it('requires tools (400) and routes only to confirmed tool-capable models', async () => {
    const missing = await chat(harness.gateway.url, { model: 'hermes-router', messages: user('go') }, { 'x-hermes-tool-loop': 'true' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('requires tool definitions');
    const named = await chat(harness.gateway.url, { model: 'mystery-model', messages: user('go'), tools: [weatherTool] }, { 'x-hermes-tool-loop': 'true' });
    expect(named.status).toBe(200);
    expect(named.headers.get('x-hermes-router-model')).not.toBe('local/mystery-model');
    const decision = await lastDecision();
    expect(decision?.toolLoop).toBe(true);
  });

  it('answers 503 when no model is confirmed tool-capable', async () => {
    const other = await startHarness();
    try {
      const result = await chat(other.gateway.url, { model: 'gpt-test', messages: user('go'), tools: [weatherTool] }, { 'x-hermes-tool-loop': 'true' });
      expect(result.status).toBe(503);
      expect(JSON.stringify(result.body)).toContain('confirmed to support tool calling');
      expect(other.upstream.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('explicit and fallback chains', () => {
  it('a named model gets it; then its fallbacks; then the global default', async () => {
    const named = await chat(harness.gateway.url, { model: 'strong', messages: user(easyPrompt) });
    expect(named.headers.get('x-hermes-router-model')).toBe('local/strong');
    expect(named.headers.get('x-hermes-router-route')).toBe('explicit');
    harness.upstream.setScript({ byModel: { strong: { kind: 'error', status: 500 } } });
    const fallback = await chat(harness.gateway.url, { model: 'strong', messages: user(easyPrompt) });
    expect(fallback.headers.get('x-hermes-router-model')).toBe('local/mid');
    expect(fallback.headers.get('x-hermes-router-route')).toBe('fallback');
    harness.upstream.setScript({ byModel: { 'cheap-small': { kind: 'error', status: 500 } } });
    const toDefault = await chat(harness.gateway.url, { model: 'cheap-small', messages: user(easyPrompt) });
    expect(toDefault.headers.get('x-hermes-router-model')).toBe('local/mid');
    expect(toDefault.headers.get('x-hermes-router-route')).toBe('default');
  });

  it('config `explicit: route` lets the policies choose even for a named model', async () => {
    const other = await startHarness((url) => mixedConfig(url, { explicit: 'route' }));
    try {
      const result = await chat(other.gateway.url, { model: 'strong', messages: user(easyPrompt) });
      expect(result.headers.get('x-hermes-router-model')).toBe('local/cheap-small');
    } finally {
      await other.close();
    }
  });

  it('an unknown model is a 404 that lists the available ones', async () => {
    const result = await chat(harness.gateway.url, { model: 'nope', messages: user('hi') });
    expect(result.status).toBe(404);
    expect(JSON.stringify(result.body)).toContain('hermes-router, cheap-small');
  });
});

describe('per-provider skip_tokens_over', () => {
  it('skips a capped provider for a large prompt before any call, and uses it for small ones', async () => {
    const other = await startHarness((url) => ({
      providers: [
        { id: 'small-box', kind: 'openai-compatible', base_url: `${url}/v1`, skip_tokens_over: 1_000, models: [{ id: 'm', tier: 3, prices: { input: 0, output: 0 } }] },
        { id: 'cloud', kind: 'openai-compatible', base_url: `${url}/v1`, models: [{ id: 'm', tier: 3, prices: { input: 1, output: 1 } }] },
      ],
    }));
    try {
      const small = await chat(other.gateway.url, { model: 'm', messages: user('hi') });
      expect(small.headers.get('x-hermes-router-model')).toBe('small-box/m');
      const large = await chat(other.gateway.url, { model: 'm', messages: user('word '.repeat(2_000)) });
      expect(large.headers.get('x-hermes-router-model')).toBe('cloud/m');
      expect(other.upstream.requests).toHaveLength(2);
      const records = await other.observer.waitFor(2);
      expect(records.at(-1)?.decision.models?.skipped).toContainEqual({ provider: 'small-box', model: 'm', reason: expect.stringMatching(/skip_tokens_over 1000/) });
    } finally {
      await other.close();
    }
  });
});

describe('workload hint coding', () => {
  it('puts a strong tool-capable model first', async () => {
    const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: user('Rename this variable please.') }, { 'x-hermes-workload-hint': 'coding' });
    expect(result.status).toBe(200);
    // Judged on the decision: earlier tests may have left the strong model's keys resting.
    const decision = await lastDecision();
    expect(decision?.candidates[0]?.model).toBe('strong');
    expect(decision?.steps?.find((step) => step.policy === 'workload-hint')?.reason).toBe('hint "coding": 1 candidate(s) tool-capable and tier ≤ 2 first');
  });
});
