import type { SessionState } from './session-state.js';

/**
 * Sticky per-session state (tool surfaces now; affinity and topic inertia can join). Asynchronous because the
 * cluster implementation lives in Redis; the memory one answers at once.
 */
export interface SessionStore {
  readonly specificationVersion: 'v1';
  get(sessionId: string): Promise<SessionState | undefined>;
  set(sessionId: string, state: SessionState): Promise<void>;
  close(): Promise<void>;
}
