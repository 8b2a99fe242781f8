import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { BreakerSettings, BreakerState } from './circuit-breaker.js';
import { ModelSwitches } from '../models/switches/model-switches.js';
import { MemoryRoutingStateHub } from '../store/memory-routing-state-channel.js';
import { MemoryPolicyStore } from '../store/policy/memory-policy-store.js';
import { SharedStateHealth } from '../store/redis/redis-health.js';
import type { RoutingStateChannel } from '../store/routing-state-channel.js';
import { SharedRoutingState } from './shared-routing-state.js';

const settings: BreakerSettings = { windowMs: 60_000, minCalls: 4, failureRate: 0.5, openMs: 30_000 };

function cluster(now: () => number) {
  const hub = new MemoryRoutingStateHub();
  const member = (channel: RoutingStateChannel = hub.channel()) => {
    const changes: [string, BreakerState][] = [];
    const state = new SharedRoutingState({ channel, health: new SharedStateHealth('memory'), breakerSettings: settings, now });
    const breakers = state.createBreakers(settings, (key, value) => changes.push([key, value]));
    return { state, breakers, changes };
  };
  return { hub, member };
}

async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await tick();
}

describe('shared routing state', () => {
  it('a circuit opened by failures on one instance is open on the other', async () => {
    let clock = 1_000_000;
    const { member } = cluster(() => clock);
    const first = member();
    const second = member();
    for (let index = 0; index < 4; index += 1) first.breakers.record('p/m', false);
    expect(first.breakers.state('p/m')).toBe('open');
    await settle();
    expect(second.breakers.state('p/m')).toBe('open');
    expect(second.breakers.allow('p/m')).toBe(false);
    expect(second.changes).toContainEqual(['p/m', 'open']);
    // Opened elsewhere: open here for openMs from when it opened, then this instance's own (closed) circuit.
    clock += settings.openMs;
    expect(second.breakers.state('p/m')).toBe('closed');
    expect(second.breakers.allow('p/m')).toBe(true);
  });

  it('failures spread over instances open the circuit everywhere though neither saw enough alone', async () => {
    const { member } = cluster(() => 2_000_000);
    const first = member();
    const second = member();
    first.breakers.record('p/m', false);
    second.breakers.record('p/m', false);
    first.breakers.record('p/m', false);
    expect(first.breakers.state('p/m')).toBe('closed');
    second.breakers.record('p/m', true);
    await settle();
    expect(first.breakers.state('p/m')).toBe('open');
    expect(second.breakers.state('p/m')).toBe('open');
  });

  it('a later instance adopts open circuits and running cooldowns from the snapshot', async () => {
    const clock = 3_000_000;
    const { hub, member } = cluster(() => clock);
    const first = member();
    for (let index = 0; index < 4; index += 1) first.breakers.record('p/m', false);
    first.state.cooldowns.rest('key-1@p/m', 10_000);
    await settle();
    const late = member(hub.channel());
    await late.state.resync();
    expect(late.breakers.state('p/m')).toBe('open');
    expect(late.state.cooldowns.remaining('key-1@p/m')).toBe(10_000);
  });

  it('a cooldown started on one instance rests the key on the other', async () => {
    const { member } = cluster(() => 4_000_000);
    const first = member();
    const second = member();
    first.state.cooldowns.rest('key-1@p/m', 5_000);
    await settle();
    expect(second.state.cooldowns.isResting('key-1@p/m')).toBe(true);
    expect(second.state.cooldowns.isResting('key-2@p/m')).toBe(false);
  });

  it('a cooldown keeps its cause across instances: a 429’s may be waited out there too, a failure’s not', async () => {
    const { member } = cluster(() => 4_500_000);
    const first = member();
    const second = member();
    first.state.cooldowns.rest('key-1@p/m', 1_500, 'rate-limited');
    first.state.cooldowns.rest('key-2@p/m', 1_500, 'failed');
    await settle();
    expect(second.state.cooldowns.waitable('key-1@p/m')).toBe(1_500);
    expect(second.state.cooldowns.isResting('key-2@p/m')).toBe(true);
    expect(second.state.cooldowns.waitable('key-2@p/m')).toBe(0);
  });

  it('a policy saved through one instance is reloaded by the other', async () => {
    const { member } = cluster(Date.now);
    const store = new MemoryPolicyStore();
    const first = member();
    const second = member();
    const switchesA = new ModelSwitches(first.state.announcingPolicyStore(store), await store.load());
    const switchesB = new ModelSwitches(second.state.announcingPolicyStore(store), await store.load());
    second.state.followPolicy(switchesB);
    await switchesA.set({ provider: 'p', model: 'm', enabled: false });
    await settle();
    expect(switchesB.revision).toBe(1);
    expect(switchesB.isEnabled({ qualifiedName: 'p/m' })).toBe(false);
  });

  it('keeps routing on local breakers and reports the outage when the channel fails', async () => {
    const failing: RoutingStateChannel = {
      specificationVersion: 'v1',
      instanceId: 'down',
      recordOutcome: () => Promise.reject(new Error('connection refused')),
      publish: () => Promise.reject(new Error('connection refused')),
      subscribe: () => () => undefined,
      snapshot: () => Promise.reject(new Error('connection refused')),
      close: async () => undefined,
    };
    const warnings: string[] = [];
    const health = new SharedStateHealth('redis', { info() {}, warn: (_details, message) => warnings.push(message) });
    const state = new SharedRoutingState({ channel: failing, health, breakerSettings: settings });
    const breakers = state.createBreakers(settings);
    expect(breakers.allow('p/m')).toBe(true);
    for (let index = 0; index < 4; index += 1) breakers.record('p/m', false);
    state.cooldowns.rest('key@p/m', 1_000);
    await state.resync();
    await settle();
    expect(breakers.state('p/m')).toBe('open');
    expect(state.cooldowns.isResting('key@p/m')).toBe(true);
    expect(health.available).toBe(false);
    expect(warnings).toHaveLength(1);
  });
});
