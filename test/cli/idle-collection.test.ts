import { describe, expect, it } from 'vitest';
import { IdleCollector, collectAfterStart, idleCollectionSettings } from '../../src/cli/idle-collection.js';
import { InFlightRequests } from '../../src/pipeline/in-flight-requests.js';

const megabyte = 1024 * 1024;
const settings = { ...idleCollectionSettings, idleMs: 5000, minimumGrowthBytes: 16 * megabyte, settledYoungBytes: 4 * megabyte, followUpMs: 2000, maxFollowUps: 4 };

/**
 * A collector over real in-flight bookkeeping, a heap the test sets, and a clock the test moves. A collection
 * brings the footprint down to 25 MB; the young generation shrinks at the collection number `shrinksAt`.
 */
function setUp(shrinksAt = 1) {
  const requests = new InFlightRequests();
  const heap = { bytes: 20 * megabyte, young: 32 * megabyte, collected: 0 };
  const collector = new IdleCollector(requests, settings, 0, {
    footprint: () => heap.bytes,
    youngGeneration: () => heap.young,
    collect: () => {
      heap.collected += 1;
      heap.bytes = 25 * megabyte;
      if (heap.collected >= shrinksAt) heap.young = 2 * megabyte;
    },
  });
  return { requests, heap, collector };
}

describe('the idle-time collection', () => {
  it('collects once when the gateway has been quiet for idleMs after its heap grew, and not again in that quiet', () => {
    const { requests, heap, collector } = setUp();
    requests.enter();
    collector.poll(1000);
    heap.bytes = 200 * megabyte;
    requests.leave();
    collector.poll(2000);
    collector.poll(6999);
    expect(collector.collections).toBe(0);
    collector.poll(7000);
    expect(collector.collections).toBe(1);
    heap.bytes = 200 * megabyte;
    for (let now = 8000; now <= 30_000; now += 1000) collector.poll(now);
    expect(collector.collections).toBe(1);
  });

  it('never collects while a request runs, however long', () => {
    const { requests, heap, collector } = setUp();
    requests.enter();
    heap.bytes = 200 * megabyte;
    for (let now = 0; now <= 60_000; now += 1000) collector.poll(now);
    expect(collector.collections).toBe(0);
  });

  it('waits for quiet again when a request starts and ends between two looks', () => {
    const { requests, heap, collector } = setUp();
    heap.bytes = 200 * megabyte;
    collector.poll(4000);
    requests.enter();
    requests.leave();
    collector.poll(5000);
    collector.poll(6000);
    collector.poll(10_999);
    expect(collector.collections).toBe(0);
    collector.poll(11_000);
    expect(collector.collections).toBe(1);
  });

  it('leaves a heap alone that did not grow by minimumGrowthBytes since the last collection', () => {
    const { requests, heap, collector } = setUp();
    requests.enter();
    requests.leave();
    heap.bytes = 35 * megabyte;
    collector.poll(1000);
    collector.poll(2000);
    collector.poll(7000);
    collector.poll(30_000);
    expect(collector.collections).toBe(0);
    requests.enter();
    requests.leave();
    collector.poll(31_000);
    collector.poll(32_000);
    heap.bytes = 37 * megabyte;
    collector.poll(37_000);
    expect(collector.collections).toBe(1);
  });

  it('collects again followUpMs apart until the young generation has shrunk, at most maxFollowUps times', () => {
    const shrinking = setUp(3);
    shrinking.heap.bytes = 200 * megabyte;
    for (let now = 0; now <= 30_000; now += 1000) shrinking.collector.poll(now);
    // Quiet from 0: the first at 5 s, follow-ups at 7 s and 9 s; the third left it shrunk.
    expect(shrinking.collector.collections).toBe(3);

    const stubborn = setUp(Number.POSITIVE_INFINITY);
    stubborn.heap.bytes = 200 * megabyte;
    for (let now = 0; now <= 60_000; now += 1000) stubborn.collector.poll(now);
    expect(stubborn.collector.collections).toBe(1 + settings.maxFollowUps);
  });

  it('stops the follow-ups when a request arrives', () => {
    const { requests, heap, collector } = setUp(Number.POSITIVE_INFINITY);
    heap.bytes = 200 * megabyte;
    for (let now = 0; now <= 5000; now += 1000) collector.poll(now);
    expect(collector.collections).toBe(1);
    requests.enter();
    for (let now = 6000; now <= 30_000; now += 1000) collector.poll(now);
    expect(collector.collections).toBe(1);
  });
});

describe('the collection right after the start', () => {
  const turn = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('collects once, on the next turn, while no request has started', async () => {
    const requests = new InFlightRequests();
    let collected = 0;
    collectAfterStart(requests, () => (collected += 1));
    expect(collected).toBe(0);
    await turn();
    expect(collected).toBe(1);
  });

  it('leaves a request that already started alone, finished or not', async () => {
    for (const finished of [false, true]) {
      const requests = new InFlightRequests();
      let collected = 0;
      collectAfterStart(requests, () => (collected += 1));
      requests.enter();
      if (finished) requests.leave();
      await turn();
      expect(collected).toBe(0);
    }
  });
});
