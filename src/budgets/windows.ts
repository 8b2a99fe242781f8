import type { BudgetWindow } from './rules.js';

/** A session's budget is kept this long after its first request (sessions themselves expire when idle). */
const sessionCounterMs = 7 * 24 * 60 * 60 * 1000;
/** A day or month counter outlives its window by this much, so a clock a little behind still finds it. */
const graceMs = 60 * 60 * 1000;

export interface WindowInstance {
  /** `2026-12-01`, `2026-12`, or the session id. */
  id: string;
  /** When the window ends (epoch ms); undefined for a session, which ends when it is no longer used. */
  resetsAt?: number;
  /** How long its counter is kept from creation. */
  ttlMs: number;
}

/** The current instance of a window at `at` (UTC days and months), or undefined for a session window without a session. */
export function windowAt(window: BudgetWindow, at: number, sessionId: string | undefined): WindowInstance | undefined {
  const date = new Date(at);
  if (window === 'session') return sessionId === undefined ? undefined : { id: sessionId, ttlMs: sessionCounterMs };
  if (window === 'day') {
    const resetsAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
    return { id: date.toISOString().slice(0, 10), resetsAt, ttlMs: resetsAt - at + graceMs };
  }
  const resetsAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return { id: date.toISOString().slice(0, 7), resetsAt, ttlMs: resetsAt - at + graceMs };
}

/** Where a window starts, for rebuilding its counter from the ledger. */
export function windowStart(window: 'day' | 'month', at: number): number {
  const date = new Date(at);
  return window === 'day' ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) : Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}
