import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { SharedStateHealth } from '../../store/redis/redis-health.js';
import type { TopicSessionState } from './inertia.js';
import { MemoryTopicSessions } from './inertia-store.js';
import type { TopicSessionStore } from './inertia-store.js';

const storedStateSchema = z.object({
  topic: z.string(),
  pending: z.object({ topic: z.string(), turns: z.number().int().nonnegative() }).optional(),
  turns: z.number().int().nonnegative(),
}) satisfies z.ZodType<TopicSessionState>;

export interface RedisTopicSessionsOptions {
  client: Redis;
  keyPrefix: string;
  /** A session untouched this long is forgotten by Redis (PX), as sessions are. */
  ttlMs: number;
  /** Sessions this instance keeps in memory. */
  maxSessions: number;
  health: SharedStateHealth;
}

/**
 * Topic inertia shared by every instance: JSON under `<prefix>topic:<session>` with a PX ttl. Answers come from
 * this instance's memory; every `set` is written through to Redis, and `load` (awaited once per request, before
 * routing, alongside the session read) adopts what another instance wrote for the session's previous turn.
 * While Redis fails, memory keeps answering (fail open): a session this instance served keeps its inertia, one
 * it never saw starts fresh, exactly as with one instance.
 */
export class RedisTopicSessions implements TopicSessionStore {
  readonly specificationVersion = 'v1' as const;
  readonly #local: MemoryTopicSessions;
  /** Loads in flight, by session; a `set` in between makes the loaded answer stale, so it is dropped. */
  readonly #loading = new Map<string, symbol>();

  constructor(private readonly options: RedisTopicSessionsOptions) {
    this.#local = new MemoryTopicSessions(options.maxSessions);
  }

  #key(sessionId: string): string {
    return `${this.options.keyPrefix}topic:${sessionId}`;
  }

  get(sessionId: string): TopicSessionState | undefined {
    return this.#local.get(sessionId);
  }

  set(sessionId: string, state: TopicSessionState): void {
    this.#loading.delete(sessionId);
    this.#local.set(sessionId, state);
    this.options.client.set(this.#key(sessionId), JSON.stringify(state), 'PX', Math.max(1, Math.trunc(this.options.ttlMs))).then(
      () => this.options.health.succeeded(),
      (error: unknown) => this.options.health.failed('topic set', error),
    );
  }

  async load(sessionId: string): Promise<void> {
    const token = Symbol(sessionId);
    this.#loading.set(sessionId, token);
    let text: string | null = null;
    try {
      text = await this.options.client.get(this.#key(sessionId));
      this.options.health.succeeded();
    } catch (error) {
      this.options.health.failed('topic get', error);
    }
    const stillCurrent = this.#loading.get(sessionId) === token;
    if (stillCurrent) this.#loading.delete(sessionId);
    // A `set` (or a later load) meanwhile knows better; an absent key (never routed by topic, or expired) keeps
    // what this instance remembers.
    if (!stillCurrent || text === null) return;
    const parsed = storedStateSchema.safeParse(safeJson(text));
    if (parsed.success) this.#local.set(sessionId, parsed.data);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
