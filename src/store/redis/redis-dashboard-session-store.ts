import type { Redis } from 'ioredis';
import type { DashboardSession, DashboardSessionStore } from '../dashboard-session-store.js';

export interface RedisDashboardSessionStoreOptions {
  client: Redis;
  /** Prefix of every key, e.g. `hermes-router:`. */
  keyPrefix: string;
  now?: () => number;
}

function isDashboardSession(value: unknown): value is DashboardSession {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.csrfToken === 'string' && typeof candidate.expiresAt === 'number';
}

/**
 * Dashboard logins shared by every instance: `<prefix>dashboard-session:<id hash>` holds the session as JSON,
 * written with `SET … PX ttl` so Redis forgets it when the login ends; logout deletes it. Errors propagate
 * (the caller refuses the login with a 503 rather than trusting a copy that may have been logged out elsewhere).
 */
export class RedisDashboardSessionStore implements DashboardSessionStore {
  readonly specificationVersion = 'v1' as const;
  readonly #now: () => number;

  constructor(private readonly options: RedisDashboardSessionStoreOptions) {
    this.#now = options.now ?? Date.now;
  }

  #key(idHash: string): string {
    return `${this.options.keyPrefix}dashboard-session:${idHash}`;
  }

  async save(idHash: string, session: DashboardSession, ttlMs: number): Promise<void> {
    await this.options.client.set(this.#key(idHash), JSON.stringify(session), 'PX', Math.max(1, Math.trunc(ttlMs)));
  }

  async load(idHash: string): Promise<DashboardSession | undefined> {
    const text = await this.options.client.get(this.#key(idHash));
    if (text === null) return undefined;
    const parsed: unknown = JSON.parse(text);
    // Redis expires the key itself; the check covers a clock a little ahead of the instance that wrote it.
    if (!isDashboardSession(parsed) || parsed.expiresAt <= this.#now()) return undefined;
    return parsed;
  }

  async delete(idHash: string): Promise<void> {
    await this.options.client.del(this.#key(idHash));
  }
}
