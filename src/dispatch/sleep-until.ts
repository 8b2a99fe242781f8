/**
 * Sleeps until `milliseconds` have passed by the wall clock (`now`), or `signal` aborts. Node's timers run on a
 * monotonic clock that can fire a millisecond before `Date.now()` says the time is up; the cooldowns the attempt
 * loop waits out are kept in `Date.now()` time, so a plain `setTimeout` can wake it while the key still rests for
 * 1 ms, and the second round then skips the very key it waited for. The timer is re-armed until the wall clock
 * agrees.
 */
export function sleepUntilElapsed(milliseconds: number, signal: AbortSignal, now: () => number = Date.now): Promise<void> {
  const until = now() + milliseconds;
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const arm = (): void => {
      const left = until - now();
      if (left <= 0 || signal.aborted) finish();
      else timer = setTimeout(arm, left);
    };
    signal.addEventListener('abort', finish, { once: true });
    arm();
  });
}
