import { describe, expect, it } from 'vitest';
import { growthFactor, growYoungGenerationUnderLoad, type YoungGenerationControl } from './young-generation-limit.js';

const megabyte = 1024 * 1024;

/** A young generation that doubles at each collection while the factor is 2, as V8's does when enough survives. */
function fakeYoungGeneration(startMegabytes: number) {
  let capacity = startMegabytes * megabyte * 0.98;
  let factor = 2;
  const factors: number[] = [];
  let after: (() => void) | undefined;
  const control: YoungGenerationControl = {
    semiSpaceCapacity: () => capacity,
    setGrowthFactor(value) {
      factor = value;
      factors.push(value);
    },
    observeCollections(callback) {
      after = callback;
      return { disconnect: () => (after = undefined) };
    },
  };
  return {
    control,
    factors,
    collect() {
      capacity = Math.min(16 * megabyte * 0.98, capacity * factor);
      after?.();
    },
    megabytes: () => Math.round(capacity / 0.98 / megabyte),
  };
}

describe('the young generation under load', () => {
  it('doubles while one more doubling stays within the limit', () => {
    expect(growthFactor(1 * megabyte * 0.98, 8 * megabyte)).toBe(2);
    expect(growthFactor(4 * megabyte * 0.98, 8 * megabyte)).toBe(2);
    expect(growthFactor(8 * megabyte * 0.98, 8 * megabyte)).toBe(1);
  });

  it('grows to the limit while enough requests run, not past it, and not while few do', () => {
    const young = fakeYoungGeneration(1);
    const activity = { size: 1 };
    const limit = growYoungGenerationUnderLoad(activity, { semiSpaceLimitMegabytes: 8, minimumInFlight: 8 }, young.control);
    for (let collection = 0; collection < 5; collection += 1) young.collect();
    expect(young.megabytes()).toBe(1);
    activity.size = 32;
    for (let collection = 0; collection < 10; collection += 1) young.collect();
    expect(young.megabytes()).toBe(8);
    expect(young.factors).toEqual([1, 2, 1]);
    limit.stop();
  });
});
