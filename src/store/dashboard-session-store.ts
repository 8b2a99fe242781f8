/** What a dashboard login holds: the CSRF token the page echoes, and when the login ends (epoch ms). */
export interface DashboardSession {
  csrfToken: string;
  expiresAt: number;
}

/**
 * Where dashboard logins live (version 1), keyed by the hash of the cookie's session id, never the id itself.
 * Memory for one instance; Redis in a cluster, so a login made through one instance holds on every other.
 * Every implementation runs `dashboard-session-store.contract.ts`.
 *
 * Errors propagate: `DashboardSessions` turns a store that cannot answer into a 503, so a login that cannot be
 * checked is refused rather than guessed at (src/security/ARCHITECTURE.md, *In a cluster*).
 */
export interface DashboardSessionStore {
  readonly specificationVersion: 'v1';
  /** Keeps a new session for `ttlMs` (it also carries `expiresAt`, which `load` checks). */
  save(idHash: string, session: DashboardSession, ttlMs: number): Promise<void>;
  /** The session while it lives; undefined when unknown, logged out or expired. */
  load(idHash: string): Promise<DashboardSession | undefined>;
  /** Ends a session everywhere; deleting an unknown one is not an error. */
  delete(idHash: string): Promise<void>;
}
