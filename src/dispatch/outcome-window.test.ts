import { describe, expect, it } from 'vitest';
import { OutcomeWindow } from './outcome-window.js';

/** The array of outcomes the window replaces, as the breaker kept it: the reference for what it counts. */
function reference() {
  let outcomes: { at: number; ok: boolean }[] = [];
  return {
    record(at: number, ok: boolean, horizon: number) {
      outcomes.push({ at, ok });
      while (outcomes.length > 0 && (outcomes[0]?.at ?? at) < horizon) outcomes.shift();
    },
    clear() {
      outcomes = [];
    },
    get calls() {
      return outcomes.length;
    },
    get failures() {
      return outcomes.filter((outcome) => !outcome.ok).length;
    },
  };
}

describe('OutcomeWindow', () => {
  it('counts what the array of outcomes counted, through bursts, quiet spells, a clock that steps back, and clears', () => {
    const window = new OutcomeWindow();
    const expected = reference();
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let now = 1_000_000;
    for (let step = 0; step < 20_000; step += 1) {
      const roll = random();
      // Mostly a few ms apart, sometimes the same ms, now and then a quiet spell longer than the window, or a step back.
      now += roll < 0.3 ? 0 : roll < 0.95 ? Math.floor(random() * 5) : roll < 0.99 ? 700 : -40;
      if (roll > 0.9995) {
        window.clear();
        expected.clear();
      }
      const ok = random() > 0.2;
      window.record(now, ok, now - 500);
      expected.record(now, ok, now - 500);
      expect([window.calls, window.failures]).toEqual([expected.calls, expected.failures]);
    }
  });
});
