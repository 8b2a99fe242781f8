/** What a sliding-window admission decided. */
export interface WindowVerdict {
  admitted: boolean;
  /** Events in the window after this call (the admitted one included). */
  count: number;
  /** When refused: how long until the oldest event leaves the window. 0 when admitted. */
  retryAfterMs: number;
}

/**
 * Counters several instances share for rate and budget limits (version 1): atomic adds to an expiring total
 * (tokens or cost per key per day) and sliding-window admission (requests per minute). Redis serves a cluster,
 * the memory one a single process; both run `counter-store.contract.ts`.
 */
export interface CounterStore {
  readonly specificationVersion: 'v1';
  /** Adds `amount` (may be fractional) to `name` and returns the new total; the counter expires `ttlMs` after it was created. */
  add(name: string, amount: number, ttlMs: number): Promise<number>;
  /** The current total (0 when absent or expired). */
  get(name: string): Promise<number>;
  /** Admits one event at `at` when fewer than `limit` fall in the last `windowMs`, atomically. */
  admit(name: string, limit: number, windowMs: number, at: number): Promise<WindowVerdict>;
  close(): Promise<void>;
}
