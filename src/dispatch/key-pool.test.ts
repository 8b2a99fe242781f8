import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../config/schema.js';
import { Cooldowns } from './cooldowns.js';
import { KeyPool, type PooledKey } from './key-pool.js';
import { ManualClock } from './test-support/scripted-dispatch.js';

const never = () => false;
const ids = (keys: PooledKey[]) => keys.map((key) => key.id);

function providerConfig(overrides: Partial<ProviderConfig>): ProviderConfig {
  return { id: 'p', kind: 'openai-compatible', models: 'auto', headers: {}, key_rotation: 'round-robin', enabled: true, ...overrides } as ProviderConfig;
}

describe('KeyPool', () => {
  it('round-robin starts each attempt at the next key and keeps the rest in order behind it', () => {
    const pool = new KeyPool('p', 'round-robin', ['a', 'b', 'c']);
    expect(ids(pool.order(never))).toEqual(['p#1', 'p#2', 'p#3']);
    expect(ids(pool.order(never))).toEqual(['p#2', 'p#3', 'p#1']);
    expect(ids(pool.order(never))).toEqual(['p#3', 'p#1', 'p#2']);
    expect(ids(pool.order(never))).toEqual(['p#1', 'p#2', 'p#3']);
  });

  it('sequential always starts at the first key', () => {
    const pool = new KeyPool('p', 'sequential', ['a', 'b']);
    expect(ids(pool.order(never))).toEqual(['p#1', 'p#2']);
    expect(ids(pool.order(never))).toEqual(['p#1', 'p#2']);
  });

  it('leaves out resting keys, and gives them back when their rest is over (cooldown after a 429)', () => {
    const clock = new ManualClock();
    const cooldowns = new Cooldowns(clock.now);
    const pool = new KeyPool('p', 'sequential', ['a', 'b']);
    const resting = (key: PooledKey) => cooldowns.isResting(`${key.id}|model`);
    cooldowns.rest('p#1|model', 5_000);
    expect(ids(pool.order(resting))).toEqual(['p#2']);
    clock.advance(4_999);
    expect(ids(pool.order(resting))).toEqual(['p#2']);
    clock.advance(1);
    expect(ids(pool.order(resting))).toEqual(['p#1', 'p#2']);
  });

  it('names keys by position and last four characters, never by value', () => {
    const pool = new KeyPool('p', 'sequential', ['sk-secret-abcd', undefined]);
    expect(pool.keys.map((key) => [key.id, key.hint])).toEqual([
      ['p#1', '…abcd'],
      ['p#2', 'none'],
    ]);
  });

  it('collects keys from api_key, api_keys and a comma-separated variable, in that order', () => {
    const pool = KeyPool.fromConfig(providerConfig({ api_key: 'k1', api_keys: ['k2', 'k3'], api_key_env: 'KEYS' }), { KEYS: ' k4 , k5,' });
    expect(pool.keys.map((key) => key.value)).toEqual(['k1', 'k2', 'k3', 'k4', 'k5']);
  });

  it("reads the kind's default variable only when the config names no key", () => {
    const fromDefault = KeyPool.fromConfig(providerConfig({ kind: 'openai' }), { OPENAI_API_KEY: 'env-key' });
    expect(fromDefault.keys.map((key) => key.value)).toEqual(['env-key']);
    const configured = KeyPool.fromConfig(providerConfig({ kind: 'openai', api_key: 'own' }), { OPENAI_API_KEY: 'env-key' });
    expect(configured.keys.map((key) => key.value)).toEqual(['own']);
  });

  it('gives a keyless server one keyless slot, so the attempt loop stays uniform', () => {
    const pool = KeyPool.fromConfig(providerConfig({ kind: 'ollama', base_url: 'http://127.0.0.1:11434/v1' }), {});
    expect(pool.keys).toEqual([{ id: 'p#1', value: undefined, hint: 'none' }]);
  });
});

describe('Cooldowns', () => {
  it('never shortens a rest that is already longer', () => {
    const clock = new ManualClock();
    const cooldowns = new Cooldowns(clock.now);
    cooldowns.rest('k', 10_000);
    cooldowns.rest('k', 1_000);
    expect(cooldowns.remaining('k')).toBe(10_000);
    clock.advance(10_000);
    expect(cooldowns.isResting('k')).toBe(false);
    expect(cooldowns.remaining('k')).toBe(0);
  });
});
