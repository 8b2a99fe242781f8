import type { SessionRecords } from '../../session/session-records.js';
import type { SessionAffinityStore } from './session-affinity.js';

/**
 * Affinity kept in the session record (so one Redis key per session holds it in a cluster, and every instance
 * knows where a session's previous turn went). The router asks synchronously, inside a request: the request has
 * the record open. Outside a request there is no session to route, so nothing is remembered there.
 */
export class RecordSessionAffinity implements SessionAffinityStore {
  constructor(
    private readonly records: Pick<SessionRecords, 'current'>,
    private readonly ttlMs: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  get(sessionId: string): string | undefined {
    const affinity = this.records.current(sessionId)?.affinity;
    if (!affinity || affinity.expiresAt <= this.now()) return undefined;
    return affinity.deployment;
  }

  remember(sessionId: string, qualifiedName: string): void {
    const record = this.records.current(sessionId);
    if (record) record.affinity = { deployment: qualifiedName, expiresAt: this.now() + this.ttlMs() };
  }
}
