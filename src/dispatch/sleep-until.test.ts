import { afterEach, describe, expect, it, vi } from 'vitest';
import { sleepUntilElapsed } from './sleep-until.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('sleepUntilElapsed', () => {
  it('keeps sleeping when the timer fires a millisecond before the wall clock says the time is up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let wallClock = 1_000;
    let woke = false;
    void sleepUntilElapsed(150, new AbortController().signal, () => wallClock).then(() => {
      woke = true;
    });
    // The monotonic timer says 150 ms passed; the wall clock only 149.
    wallClock = 1_149;
    await vi.advanceTimersByTimeAsync(150);
    expect(woke).toBe(false);
    wallClock = 1_150;
    await vi.advanceTimersByTimeAsync(1);
    expect(woke).toBe(true);
  });

  it('wakes at once when the signal aborts', async () => {
    const controller = new AbortController();
    const sleeping = sleepUntilElapsed(60_000, controller.signal);
    controller.abort();
    await expect(sleeping).resolves.toBeUndefined();
  });

  it('returns at once for a zero wait', async () => {
    let woke = false;
    void sleepUntilElapsed(0, new AbortController().signal).then(() => {
      woke = true;
    });
    await Promise.resolve();
    expect(woke).toBe(true);
  });
});
