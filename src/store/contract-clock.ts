import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The time a store contract runs on. A store that reads a `now` function runs on a clock the suite moves by hand,
 * so a TTL case says the same thing however slow the machine is. A store whose entries a server expires (Redis
 * `PX`) cannot be told the time: it runs on real time with every TTL and wait of the case multiplied by `scale`,
 * so that a loaded machine's delays stay far within the margins the case leaves (a third of a TTL or more).
 */
export interface ContractClock {
  readonly now: () => number;
  /** Lets `milliseconds` (already scaled) pass for the store under test. */
  pass(milliseconds: number): Promise<void>;
  /** What the case multiplies its TTLs and waits by: 1 on the hand-moved clock. */
  readonly scale: number;
}

/** How a store under a contract learns the time: from the suite's clock, or from its server's. */
export type StoreExpiry = 'clock' | 'server';

export function contractClock(expiry: StoreExpiry): ContractClock {
  if (expiry === 'server') {
    return { now: Date.now, pass: async (milliseconds) => void (await sleep(milliseconds)), scale: 20 };
  }
  let current = Date.now();
  return {
    now: () => current,
    pass: async (milliseconds) => {
      current += milliseconds;
    },
    scale: 1,
  };
}
