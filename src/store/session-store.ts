import type { SessionRecord } from './session-record.js';

/**
 * Where session records live between requests (version 1): memory for one instance, Redis for a cluster (one
 * key per session). Asynchronous because the cluster implementation is remote; the memory one answers at once.
 * `set` stamps `updatedAt` and restarts the session's TTL. Every implementation runs `session-store.contract.ts`.
 */
export interface SessionStore {
  readonly specificationVersion: 'v1';
  get(sessionId: string): Promise<SessionRecord | undefined>;
  set(sessionId: string, record: SessionRecord): Promise<void>;
  close(): Promise<void>;
}
