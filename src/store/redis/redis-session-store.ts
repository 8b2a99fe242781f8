import type { Redis } from 'ioredis';
import type { SessionRecord } from '../session-record.js';
import type { SessionStore } from '../session-store.js';

export interface RedisSessionStoreOptions {
  client: Redis;
  /** Prefix of every key, e.g. `hermes-router:`. */
  keyPrefix: string;
  /** A session untouched this long expires (Redis PX), as in the memory store. */
  ttlMs: number;
  now?: () => number;
}

/**
 * Sessions shared by every gateway instance: the whole session record (tool surface, affinity, topic inertia,
 * nudge and prompt-cache state) as one JSON string under `<prefix>session:<id>` — one key per session — written
 * with `SET … PX ttl` so Redis forgets idle sessions by itself. JSON keeps arrays in order, so a surface read on
 * another instance lists its toolsets exactly as they were written. Errors propagate; the fail-open wrapper
 * decides what a request sees when Redis is away.
 */
export class RedisSessionStore implements SessionStore {
  readonly specificationVersion = 'v1' as const;
  readonly #now: () => number;

  constructor(private readonly options: RedisSessionStoreOptions) {
    this.#now = options.now ?? Date.now;
  }

  #key(sessionId: string): string {
    return `${this.options.keyPrefix}session:${sessionId}`;
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const text = await this.options.client.get(this.#key(sessionId));
    if (text === null) return undefined;
    return JSON.parse(text) as SessionRecord;
  }

  async set(sessionId: string, state: SessionRecord): Promise<void> {
    const stored: SessionRecord = { ...state, updatedAt: this.#now() };
    await this.options.client.set(this.#key(sessionId), JSON.stringify(stored), 'PX', Math.max(1, Math.trunc(this.options.ttlMs)));
  }

  async close(): Promise<void> {
    // The client belongs to whoever opened the cluster stores; they close it once for every store.
  }
}
