import type { SharedStateHealth } from './redis-health.js';
import type { SessionRecord } from '../session-record.js';
import type { SessionStore } from '../session-store.js';

/**
 * The shared session store with a local one behind it. While the shared store fails, reads and writes go to the
 * local one: a session this instance saw keeps its surface, a session it never saw starts on the full surface
 * (fail open). Every write also lands locally, so a short outage does not cost this instance its sessions.
 */
export class FailOpenSessionStore implements SessionStore {
  readonly specificationVersion = 'v1' as const;

  constructor(
    private readonly shared: SessionStore,
    private readonly local: SessionStore,
    private readonly health: SharedStateHealth,
  ) {}

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    try {
      const state = await this.shared.get(sessionId);
      this.health.succeeded();
      return state;
    } catch (error) {
      this.health.failed('session get', error);
      return this.local.get(sessionId);
    }
  }

  async set(sessionId: string, state: SessionRecord): Promise<void> {
    await this.local.set(sessionId, state);
    try {
      await this.shared.set(sessionId, state);
      this.health.succeeded();
    } catch (error) {
      this.health.failed('session set', error);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.shared.close(), this.local.close()]);
  }
}
