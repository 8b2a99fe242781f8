import { describe, expect, it } from 'vitest';
import { InFlightRequests } from './in-flight-requests.js';

describe('InFlightRequests', () => {
  it('is idle at once with nothing in flight', async () => {
    expect(await new InFlightRequests().whenIdle(10_000)).toBe(true);
  });

  it('wakes its waiters when the last request leaves, not before', async () => {
    const requests = new InFlightRequests();
    requests.enter();
    requests.enter();
    let woke = false;
    const idle = requests.whenIdle(10_000).then((finished) => {
      woke = true;
      return finished;
    });
    requests.leave();
    await Promise.resolve();
    expect(woke).toBe(false);
    requests.leave();
    expect(await idle).toBe(true);
    expect(requests.size).toBe(0);
  });

  it('gives up after the timeout when a request never leaves', async () => {
    const requests = new InFlightRequests();
    requests.enter();
    expect(await requests.whenIdle(20)).toBe(false);
    expect(requests.size).toBe(1);
  });
});
