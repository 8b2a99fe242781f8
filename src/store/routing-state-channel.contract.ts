import { describe, expect, it } from 'vitest';
import type { BreakerSettings, RoutingStateChannel, RoutingStateEvent } from './routing-state-channel.js';

/** Two instances' channels over the same, fresh shared state. */
export type RoutingStateChannelPairFactory = () => Promise<{ first: RoutingStateChannel; second: RoutingStateChannel }>;

const settings: BreakerSettings = { windowMs: 10_000, minCalls: 4, failureRate: 0.5, openMs: 5_000 };

// Generous: this checks delivery, not speed (test/cluster asserts the 1 s bound), and CI machines get busy.
function nextEvent(channel: RoutingStateChannel, timeoutMs = 5_000): Promise<RoutingStateEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error('no event within the timeout'));
    }, timeoutMs);
    const unsubscribe = channel.subscribe((event) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

/** The behaviour every `RoutingStateChannel` must have (memory hub, Redis). */
export function describeRoutingStateChannelContract(name: string, factory: RoutingStateChannelPairFactory): void {
  describe(`RoutingStateChannel contract: ${name}`, () => {
    const withPair = async (body: (pair: { first: RoutingStateChannel; second: RoutingStateChannel }) => Promise<void>) => {
      const pair = await factory();
      try {
        await body(pair);
      } finally {
        await pair.first.close();
        await pair.second.close();
      }
    };

    it('opens a circuit on the outcome that crosses the cluster-wide threshold, once', () =>
      withPair(async ({ first, second }) => {
        const at = 1_000_000;
        expect(await first.recordOutcome('p/m', true, settings, at)).toBe(false);
        expect(await first.recordOutcome('p/m', false, settings, at + 1)).toBe(false);
        expect(await second.recordOutcome('p/m', false, settings, at + 2)).toBe(false);
        // Fourth call, two failures of four: the rate (0.5) is reached by an outcome seen on the other instance.
        expect(await second.recordOutcome('p/m', true, settings, at + 3)).toBe(true);
        expect(await first.recordOutcome('p/m', false, settings, at + 4)).toBe(false);
        expect((await first.snapshot(settings.openMs, at + 10)).openBreakers).toEqual({ 'p/m': at + 3 });
        expect((await second.snapshot(settings.openMs, at + 3 + settings.openMs)).openBreakers).toEqual({});
        expect(await first.recordOutcome('other/m', false, settings, at + 5)).toBe(false);
      }));

    it('forgets outcomes older than the window', () =>
      withPair(async ({ first, second }) => {
        const at = 2_000_000;
        await first.recordOutcome('p/m', false, settings, at);
        await first.recordOutcome('p/m', false, settings, at + 1);
        await second.recordOutcome('p/m', false, settings, at + 2);
        expect(await second.recordOutcome('p/m', false, settings, at + settings.windowMs + 3)).toBe(false);
      }));

    it('lets exactly one of many concurrent outcomes open the circuit', () =>
      withPair(async ({ first, second }) => {
        const at = 3_000_000;
        const results = await Promise.all(
          Array.from({ length: 24 }, (_, index) =>
            (index % 2 === 0 ? first : second).recordOutcome('p/m', false, settings, at + index),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      }));

    it('delivers breaker events to the other instance, not back to the sender, and stores them', () =>
      withPair(async ({ first, second }) => {
        const echoes: RoutingStateEvent[] = [];
        first.subscribe((event) => echoes.push(event));
        const received = nextEvent(second);
        const opened: RoutingStateEvent = { kind: 'breaker', key: 'p/m', state: 'open', openedAt: 5_000, origin: first.instanceId };
        await first.publish(opened);
        expect(await received).toEqual(opened);
        expect((await second.snapshot(1_000, 5_500)).openBreakers).toEqual({ 'p/m': 5_000 });
        const closedReceived = nextEvent(second);
        await first.publish({ ...opened, state: 'closed' });
        expect((await closedReceived).kind).toBe('breaker');
        expect((await second.snapshot(1_000, 5_500)).openBreakers).toEqual({});
        expect(echoes).toEqual([]);
      }));

    it('keeps the later of two cooldowns and drops ended ones from the snapshot', () =>
      withPair(async ({ first, second }) => {
        const received = nextEvent(second);
        await first.publish({ kind: 'cooldown', key: 'k1@p/m', until: 9_000, origin: first.instanceId });
        expect(await received).toMatchObject({ kind: 'cooldown', key: 'k1@p/m', until: 9_000 });
        await second.publish({ kind: 'cooldown', key: 'k1@p/m', until: 8_000, origin: second.instanceId });
        await second.publish({ kind: 'cooldown', key: 'k2@p/m', until: 6_000, origin: second.instanceId });
        expect((await first.snapshot(1_000, 7_000)).cooldowns).toEqual({ 'k1@p/m': 9_000 });
      }));

    it('delivers policy revisions', () =>
      withPair(async ({ first, second }) => {
        const received = nextEvent(first);
        await second.publish({ kind: 'policy', revision: 7, origin: second.instanceId });
        expect(await received).toEqual({ kind: 'policy', revision: 7, origin: second.instanceId });
      }));
  });
}
