/** One counter a request is charged to. */
export interface BudgetCharge {
  /** e.g. `gateway:day:2026-12-01:usd`; the store adds its own prefix. */
  name: string;
  /** What this request holds now (an estimate) or adds when it settles (what it really used). */
  amount: number;
  /** Given when the counter has a hard limit: the reservation is refused once spent + held reaches it. */
  limit?: number;
  /** The counter is kept this long from its creation (to the end of its window, plus a grace). */
  ttlMs: number;
}

export type Reservation =
  | { admitted: true; /** spent + held on each counter before this hold, in the order given. */ committed: number[] }
  | { admitted: false; /** The first charge whose limit was reached. */ refusedIndex: number; committed: number[] };

export interface BudgetTotals {
  spent: number;
  /** Held by requests still running (their estimates). */
  held: number;
}

/**
 * Budget counters (version 1), shared by every instance in a cluster (Redis) or one process (memory). A request
 * reserves an estimate on all its counters at once, atomically, and only while every limited counter is below its
 * limit; when it finishes it releases the hold and adds what it really used. So concurrent requests cannot all
 * pass a check that only one of them fits: each overshoots by at most its own request. Holds expire (`holdMs`),
 * so an instance that dies mid-request does not hold budget forever. Both stores run `budget-counter-store.contract.ts`.
 */
export interface BudgetCounterStore {
  readonly specificationVersion: 'v1';
  reserve(holdId: string, charges: readonly BudgetCharge[], holdMs: number, at: number): Promise<Reservation>;
  /** Releases `holdId` on `held` counters and adds `spent` (which may name other counters than the hold). */
  settle(holdId: string, held: readonly string[], spent: readonly BudgetCharge[]): Promise<void>;
  read(names: readonly string[], at: number): Promise<BudgetTotals[]>;
  /** Sets a counter's spent total when it has none yet (a rebuild from the ledger never doubles a live count). */
  seed(name: string, amount: number, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
