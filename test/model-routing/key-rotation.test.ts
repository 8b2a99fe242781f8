import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.js';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { chat } from './admin-client.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function config(rotation: 'round-robin' | 'sequential') {
  return (url: string): ConfigInput => ({
    providers: [
      { id: 'free', kind: 'openai-compatible', base_url: `${url}/v1`, api_keys: ['k1', 'k2', 'k3'], key_rotation: rotation, models: ['gpt-test'] },
      { id: 'paid', kind: 'openai-compatible', base_url: `${url}/v1`, api_key: 'paid-key', models: ['gpt-test'] },
    ],
    default_model: 'gpt-test',
    resilience: { cooldown_ms: 60_000, retry_after_cap_ms: 0 },
  });
}

function keysUsed(h: Harness): (string | undefined)[] {
  return h.upstream.requests.map((request) => request.headers.authorization?.replace('Bearer ', ''));
}

async function ask(h: Harness, times: number): Promise<(string | null)[]> {
  const served: (string | null)[] = [];
  for (let index = 0; index < times; index += 1) {
    const result = await chat(h.gateway.url, { model: 'gpt-test', messages: [{ role: 'user', content: `q${index}` }] });
    expect(result.status).toBe(200);
    served.push(result.headers.get('x-hermes-router-model'));
  }
  return served;
}

describe('several keys per provider, through the gateway', () => {
  it('round-robin spreads requests over every key', async () => {
    harness = await startHarness(config('round-robin'));
    await ask(harness, 6);
    expect(keysUsed(harness)).toEqual(['k1', 'k2', 'k3', 'k1', 'k2', 'k3']);
  });

  it('sequential stays on the first key until it must rest', async () => {
    harness = await startHarness(config('sequential'));
    await ask(harness, 3);
    expect(keysUsed(harness)).toEqual(['k1', 'k1', 'k1']);
    harness.upstream.enqueue({ kind: 'error', status: 429 });
    await ask(harness, 2);
    // The 429 rests k1 on this model (cooldown 60 s): the retry and the next request use k2.
    expect(keysUsed(harness).slice(3)).toEqual(['k1', 'k2', 'k2']);
  });

  it('a 429 rests only that key; the provider keeps serving on its other keys before failing over', async () => {
    harness = await startHarness(config('round-robin'));
    harness.upstream.enqueue({ kind: 'error', status: 429 }, { kind: 'error', status: 429 });
    const served = await ask(harness, 1);
    expect(keysUsed(harness)).toEqual(['k1', 'k2', 'k3']);
    expect(served).toEqual(['free/gpt-test']);
    harness.upstream.reset();
    await ask(harness, 4);
    expect(keysUsed(harness)).toEqual(['k3', 'k3', 'k3', 'k3']);
  });

  it('when every key of a provider is resting, the next provider serves', async () => {
    harness = await startHarness(config('round-robin'));
    harness.upstream.enqueue({ kind: 'error', status: 429 }, { kind: 'error', status: 429 }, { kind: 'error', status: 429 });
    const served = await ask(harness, 2);
    expect(served).toEqual(['paid/gpt-test', 'paid/gpt-test']);
    expect(keysUsed(harness)).toEqual(['k1', 'k2', 'k3', 'paid-key', 'paid-key']);
  });

  it('401 rests the key, 403 the key on that model; other keys and providers are untouched', async () => {
    harness = await startHarness(config('round-robin'));
    harness.upstream.enqueue({ kind: 'error', status: 401 }, { kind: 'error', status: 403 });
    await ask(harness, 1);
    expect(keysUsed(harness)).toEqual(['k1', 'k2', 'k3']);
    harness.upstream.reset();
    await ask(harness, 3);
    expect(keysUsed(harness)).toEqual(['k3', 'k3', 'k3']);
    const resting = harness.gateway.gateway.authRests.resting().map((event) => [event.keyId, event.scope, event.model]);
    expect(resting).toEqual([
      ['free#1', 'key', undefined],
      ['free#2', 'model', 'gpt-test'],
    ]);
  });
});
