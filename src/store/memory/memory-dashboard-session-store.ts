import type { DashboardSession, DashboardSessionStore } from '../dashboard-session-store.js';

const defaultMaximumSessions = 1_000;

/** One instance's dashboard logins, in a Map. A restart logs everyone out. */
export class MemoryDashboardSessionStore implements DashboardSessionStore {
  readonly specificationVersion = 'v1' as const;
  readonly #sessions = new Map<string, DashboardSession>();
  readonly #now: () => number;
  readonly #maximumSessions: number;

  constructor(options: { now?: () => number; maximumSessions?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#maximumSessions = options.maximumSessions ?? defaultMaximumSessions;
  }

  async save(idHash: string, session: DashboardSession): Promise<void> {
    this.#sweep();
    this.#sessions.set(idHash, { ...session });
  }

  async load(idHash: string): Promise<DashboardSession | undefined> {
    const session = this.#sessions.get(idHash);
    if (session === undefined) return undefined;
    if (session.expiresAt <= this.#now()) {
      this.#sessions.delete(idHash);
      return undefined;
    }
    return { ...session };
  }

  async delete(idHash: string): Promise<void> {
    this.#sessions.delete(idHash);
  }

  get size(): number {
    return this.#sessions.size;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, session] of this.#sessions) if (session.expiresAt <= now) this.#sessions.delete(key);
    // Logins are admin-only, but bound the map anyway: the oldest session goes first.
    while (this.#sessions.size >= this.#maximumSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
  }
}
