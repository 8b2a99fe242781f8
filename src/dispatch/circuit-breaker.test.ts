import { describe, expect, it } from 'vitest';
import { CircuitBreakers, type BreakerState } from './circuit-breaker.js';
import { ManualClock } from './test-support/scripted-dispatch.js';

const settings = { windowMs: 60_000, minCalls: 4, failureRate: 0.5, openMs: 30_000 };

function breakers() {
  const clock = new ManualClock();
  const changes: [string, BreakerState][] = [];
  const circuits = new CircuitBreakers(settings, clock.now, (key, state) => changes.push([key, state]));
  return { clock, changes, circuits };
}

function fail(circuits: CircuitBreakers, key: string, times: number): void {
  for (let index = 0; index < times; index += 1) circuits.record(key, false);
}

describe('CircuitBreakers', () => {
  it('stays closed below the minimum number of calls, however many of them failed', () => {
    const { circuits } = breakers();
    fail(circuits, 'p/m', 3);
    expect(circuits.state('p/m')).toBe('closed');
    expect(circuits.allow('p/m')).toBe(true);
  });

  it('opens when the window holds the minimum calls and the failure rate reaches the threshold', () => {
    const { circuits, changes } = breakers();
    circuits.record('p/m', true);
    circuits.record('p/m', true);
    fail(circuits, 'p/m', 1);
    circuits.record('p/m', true);
    expect(circuits.state('p/m')).toBe('closed'); // 1 of 4 failed
    fail(circuits, 'p/m', 2); // 3 of 6 = 0.5
    expect(circuits.state('p/m')).toBe('open');
    expect(circuits.allow('p/m')).toBe(false);
    expect(changes).toEqual([['p/m', 'open']]);
  });

  it('keeps circuits apart: one open deployment does not stop another', () => {
    const { circuits } = breakers();
    fail(circuits, 'p/a', 4);
    expect(circuits.allow('p/a')).toBe(false);
    expect(circuits.allow('p/b')).toBe(true);
    expect(circuits.snapshot()).toEqual({ 'p/a': 'open' });
  });

  it('forgets outcomes older than the window', () => {
    const { circuits, clock } = breakers();
    fail(circuits, 'p/m', 3);
    clock.advance(settings.windowMs + 1);
    circuits.record('p/m', false); // the three old failures are gone: 1 call in the window
    expect(circuits.state('p/m')).toBe('closed');
    fail(circuits, 'p/m', 3);
    expect(circuits.state('p/m')).toBe('open');
  });

  it('half-opens after the open time and lets exactly one trial through', () => {
    const { circuits, clock, changes } = breakers();
    fail(circuits, 'p/m', 4);
    clock.advance(settings.openMs - 1);
    expect(circuits.allow('p/m')).toBe(false);
    clock.advance(1);
    expect(circuits.state('p/m')).toBe('half-open');
    expect(circuits.allow('p/m')).toBe(true);
    expect(circuits.allow('p/m')).toBe(false); // the trial is in flight
    expect(changes.map(([, state]) => state)).toEqual(['open', 'half-open']);
  });

  it('closes on a successful trial, with a fresh window', () => {
    const { circuits, clock, changes } = breakers();
    fail(circuits, 'p/m', 4);
    clock.advance(settings.openMs);
    expect(circuits.allow('p/m')).toBe(true);
    circuits.record('p/m', true);
    expect(circuits.state('p/m')).toBe('closed');
    expect(changes.map(([, state]) => state)).toEqual(['open', 'half-open', 'closed']);
    fail(circuits, 'p/m', 3); // the failures before the trial no longer count
    expect(circuits.state('p/m')).toBe('closed');
  });

  it('re-opens on a failed trial, for another full open time', () => {
    const { circuits, clock } = breakers();
    fail(circuits, 'p/m', 4);
    clock.advance(settings.openMs);
    expect(circuits.allow('p/m')).toBe(true);
    circuits.record('p/m', false);
    expect(circuits.state('p/m')).toBe('open');
    clock.advance(settings.openMs - 1);
    expect(circuits.allow('p/m')).toBe(false);
    clock.advance(1);
    expect(circuits.allow('p/m')).toBe(true);
  });

  it('lets another trial through when one ends without a verdict (released)', () => {
    const { circuits, clock } = breakers();
    fail(circuits, 'p/m', 4);
    clock.advance(settings.openMs);
    expect(circuits.allow('p/m')).toBe(true);
    circuits.release('p/m');
    expect(circuits.state('p/m')).toBe('half-open');
    expect(circuits.allow('p/m')).toBe(true);
  });
});
