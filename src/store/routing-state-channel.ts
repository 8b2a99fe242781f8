/** A circuit breaker's state (the attempt loop's breakers in `dispatch/circuit-breaker.ts`). */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** When a circuit opens: a failure rate over a sliding window with a minimum of calls, and how long it stays open. */
export interface BreakerSettings {
  windowMs: number;
  minCalls: number;
  failureRate: number;
  openMs: number;
}

/**
 * Why a key+model rests: `rate-limited` after a 429 (a request may wait out a short one: the provider said when
 * to come back), `failed` after a 5xx, a timeout or a reset (requests move on, never wait for it).
 */
export type RestCause = 'rate-limited' | 'failed';

/** What one gateway instance tells the others. `origin` is the sender's instance id. */
export type RoutingStateEvent =
  /** A circuit opened (at `openedAt`) or closed after a successful trial. */
  | { kind: 'breaker'; key: string; state: 'open' | 'closed'; openedAt: number; origin: string }
  /** A key+model must rest until `until` (epoch ms); `cause` absent means `failed` (senders before it existed). */
  | { kind: 'cooldown'; key: string; until: number; origin: string; cause?: RestCause }
  /** The model policy was saved at `revision`; reload it. */
  | { kind: 'policy'; revision: number; origin: string };

/** What a starting instance adopts: circuits open now (with when they opened) and cooldowns still running. */
export interface RoutingStateSnapshot {
  openBreakers: Record<string, number>;
  cooldowns: Record<string, number>;
}

/**
 * Routing state shared by several gateway instances (version 1): a cluster-wide breaker tally, durable
 * open-circuit and cooldown entries, and change notifications. Redis serves a cluster; the memory one serves
 * instances in one process (tests). The request path never waits on it: the breakers and cooldowns built on it
 * keep answering from local state and treat a failing channel as absent (fail open).
 */
export interface RoutingStateChannel {
  readonly specificationVersion: 'v1';
  /** Unique per instance; events carry it so an instance ignores its own. */
  readonly instanceId: string;
  /**
   * Adds one call outcome to the cluster-wide sliding window of `key`, atomically. Resolves true exactly when
   * this outcome opened the circuit (at least `minCalls` calls in the window and the failure rate reached), in
   * which case the channel has stored the opening; the caller announces it.
   */
  recordOutcome(key: string, ok: boolean, settings: BreakerSettings, at: number): Promise<boolean>;
  /** Stores what the event says (open circuit, longer cooldown) and delivers it to every other instance. */
  publish(event: RoutingStateEvent): Promise<void>;
  /** Events from other instances; returns the unsubscribe function. */
  subscribe(listener: (event: RoutingStateEvent) => void): () => void;
  /** Circuits opened less than `openMs` ago and cooldowns not yet over, as of `now`. */
  snapshot(openMs: number, now: number): Promise<RoutingStateSnapshot>;
  close(): Promise<void>;
}
