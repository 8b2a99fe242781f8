import type { NudgeSessionState } from '../store/session-record.js';

/**
 * Where the nudge keeps each session's fill between requests: the session record in the gateway (so a cluster
 * shares it and it lives as long as the session), a bounded map of its own otherwise.
 */
export interface NudgeSessionStates {
  get(sessionId: string): NudgeSessionState | undefined;
  set(sessionId: string, state: NudgeSessionState): void;
}

/** The nudge's own session fills when no session record holds them (a nudge used on its own, its tests). */
export class MemoryNudgeSessionStates implements NudgeSessionStates {
  readonly #states = new Map<string, NudgeSessionState>();

  constructor(private readonly maxSessions: number) {}

  get(sessionId: string): NudgeSessionState | undefined {
    return this.#states.get(sessionId);
  }

  set(sessionId: string, state: NudgeSessionState): void {
    if (!this.#states.has(sessionId) && this.#states.size >= this.maxSessions) {
      // Forget the session seen longest ago; its nudges could fire again, the cost of a bounded memory.
      let oldest: string | undefined;
      let oldestAt = Number.POSITIVE_INFINITY;
      for (const [id, entry] of this.#states) {
        if (entry.seenAt < oldestAt) {
          oldest = id;
          oldestAt = entry.seenAt;
        }
      }
      if (oldest !== undefined) this.#states.delete(oldest);
    }
    this.#states.set(sessionId, state);
  }
}
