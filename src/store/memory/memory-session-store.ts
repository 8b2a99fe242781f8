import type { SessionRecord } from '../session-record.js';
import type { SessionStore } from '../session-store.js';
import { copyRecord } from './copy-record.js';

export interface MemorySessionStoreOptions {
  /** A session untouched this long is forgotten (its next request is treated as resumed). */
  ttlMs: number;
  /** Bound on remembered sessions; the least recently used go first. */
  maxSessions: number;
  now?: () => number;
}

/** One process's sessions, in a Map kept in least-recently-used order. */
export class MemorySessionStore implements SessionStore {
  readonly specificationVersion = 'v1' as const;
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly now: () => number;

  constructor(private readonly options: MemorySessionStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const state = this.sessions.get(sessionId);
    if (!state) return undefined;
    if (this.now() - state.updatedAt > this.options.ttlMs) {
      this.sessions.delete(sessionId);
      return undefined;
    }
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, state);
    return copyRecord(state);
  }

  async set(sessionId: string, state: SessionRecord): Promise<void> {
    this.sessions.delete(sessionId);
    const stored = copyRecord(state);
    stored.updatedAt = this.now();
    this.sessions.set(sessionId, stored);
    while (this.sessions.size > this.options.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
  }

  async close(): Promise<void> {
    this.sessions.clear();
  }
}
