import type { Redis } from 'ioredis';
import { MemorySessionAffinity } from '../models/affinity/session-affinity.js';
import type { SessionAffinityStore } from '../models/affinity/session-affinity.js';
import type { SharedStateHealth } from '../store/redis/redis-health.js';

export interface RedisSessionAffinityOptions {
  client: Redis;
  keyPrefix: string;
  ttlMs: number;
  maxSessions: number;
  health: SharedStateHealth;
  now?: () => number;
}

/**
 * Session affinity shared by every instance, behind the synchronous interface the router asks on every request.
 * Answers come from this instance's memory; Redis (`<prefix>affinity:<id>`, PX ttl) is written on every
 * `remember` and read in the background on every `get`, so the next turn of a session this instance serves knows
 * where the previous turn, served anywhere, went. The cost of never waiting: a session's first turn on an
 * instance, or the first after another instance moved it, goes by the instance's own (older) view.
 */
export class RedisSessionAffinity implements SessionAffinityStore {
  readonly #local: MemorySessionAffinity;
  /** Refreshes in flight, by session; a `remember` in between makes the refresh's answer stale, so it is dropped. */
  readonly #refreshing = new Map<string, symbol>();

  constructor(private readonly options: RedisSessionAffinityOptions) {
    this.#local = new MemorySessionAffinity(options.ttlMs, options.maxSessions, options.now);
  }

  #key(sessionId: string): string {
    return `${this.options.keyPrefix}affinity:${sessionId}`;
  }

  get(sessionId: string): string | undefined {
    this.#refresh(sessionId);
    return this.#local.get(sessionId);
  }

  remember(sessionId: string, qualifiedName: string): void {
    this.#refreshing.delete(sessionId);
    this.#local.remember(sessionId, qualifiedName);
    this.options.client.set(this.#key(sessionId), qualifiedName, 'PX', Math.max(1, Math.trunc(this.options.ttlMs))).then(
      () => this.options.health.succeeded(),
      (error: unknown) => this.options.health.failed('affinity set', error),
    );
  }

  /** Resolves when the background reads started so far have landed (for tests). */
  async settled(): Promise<void> {
    while (this.#refreshing.size > 0) await new Promise((resolve) => setTimeout(resolve, 2));
  }

  #refresh(sessionId: string): void {
    if (this.#refreshing.has(sessionId)) return;
    const token = Symbol(sessionId);
    this.#refreshing.set(sessionId, token);
    this.options.client.get(this.#key(sessionId)).then(
      (value) => {
        this.options.health.succeeded();
        if (this.#refreshing.get(sessionId) !== token) return;
        this.#refreshing.delete(sessionId);
        if (value !== null && value !== this.#local.get(sessionId)) this.#local.remember(sessionId, value);
      },
      (error: unknown) => {
        if (this.#refreshing.get(sessionId) === token) this.#refreshing.delete(sessionId);
        this.options.health.failed('affinity get', error);
      },
    );
  }
}
