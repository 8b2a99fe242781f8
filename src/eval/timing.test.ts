import { describe, expect, it } from 'vitest';
import { percentileMs, timeDecisions } from './timing.js';

describe('timeDecisions', () => {
  it('runs every input once per pass, keeps the first pass outputs in order and one median per input', () => {
    const calls: number[] = [];
    const timed = timeDecisions([1, 2, 3], (input) => {
      calls.push(input);
      return input * 10;
    }, 5);
    expect(calls).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]);
    expect(timed.outputs).toEqual([10, 20, 30]);
    expect(timed.medianMs).toHaveLength(3);
    expect(timed.firstRunMs).toHaveLength(3);
    for (const value of [...timed.medianMs, ...timed.firstRunMs]) expect(value).toBeGreaterThanOrEqual(0);
  });

  it('keeps the median run, so one slow run of an input does not set its time', () => {
    let call = 0;
    const timed = timeDecisions(['only'], () => {
      call += 1;
      if (call === 1) {
        const until = Date.now() + 100;
        while (Date.now() < until);
      }
    }, 3);
    expect(timed.firstRunMs[0]).toBeGreaterThanOrEqual(90);
    expect(timed.medianMs[0]).toBeLessThan(timed.firstRunMs[0]!);
  });
});

describe('percentileMs', () => {
  it('takes the nearest rank', () => {
    expect(percentileMs([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentileMs([5, 1, 4, 2, 3], 99)).toBe(5);
  });
});
