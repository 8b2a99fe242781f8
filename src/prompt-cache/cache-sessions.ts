import type { PromptCacheConfig, PromptCacheTtl } from '../config/prompt-cache.js';

const ttlMs: Record<PromptCacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

interface CacheSession {
  lastSeenAt: number;
  ttl: PromptCacheTtl;
  /** The provider key that last answered, and until when its cache is warm. */
  key?: { providerId: string; keyId: string; warmUntil: number };
}

/**
 * What the optimizer remembers per session, in this process: when its last turn came (for the TTL policy) and
 * which provider key wrote its cache (for key affinity). Bounded and least-recently-seen first out. A cluster
 * keeps this per instance, which is where the deployment affinity already sends a session's next turn.
 */
export class PromptCacheSessions {
  private readonly sessions = new Map<string, CacheSession>();

  constructor(
    private config: PromptCacheConfig,
    private readonly now: () => number = Date.now,
  ) {}

  reconfigure(config: PromptCacheConfig): void {
    this.config = config;
  }

  /**
   * The TTL for this turn of the session, and the turn noted. `auto` picks the 1-hour cache once two turns came
   * `long_ttl_after_gap_ms` or more apart (but within the hour, or the cache is gone anyway), and keeps it for the
   * session: an agent that paused once will pause again, and a 5-minute cache would be written afresh each time.
   */
  ttlForTurn(sessionId: string): PromptCacheTtl {
    const now = this.now();
    const session = this.sessions.get(sessionId);
    let ttl: PromptCacheTtl = this.config.ttl === 'auto' ? (session?.ttl ?? '5m') : this.config.ttl;
    if (this.config.ttl === 'auto' && session) {
      const gap = now - session.lastSeenAt;
      if (gap >= this.config.long_ttl_after_gap_ms && gap <= ttlMs['1h']) ttl = '1h';
    }
    this.touch(sessionId, { ...session, lastSeenAt: now, ttl });
    return ttl;
  }

  /** The key whose cache is still warm for this session on this provider, if any. */
  warmKey(sessionId: string, providerId: string): string | undefined {
    if (!this.config.key_affinity) return undefined;
    const key = this.sessions.get(sessionId)?.key;
    if (!key || key.providerId !== providerId || key.warmUntil <= this.now()) return undefined;
    return key.keyId;
  }

  /** A call answered: its key holds the session's cache for one TTL from now (a read refreshes it too). */
  answered(sessionId: string, providerId: string, keyId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    session.key = { providerId, keyId, warmUntil: this.now() + ttlMs[session.ttl] };
  }

  private touch(sessionId: string, session: CacheSession): void {
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, session);
    while (this.sessions.size > this.config.max_sessions) {
      const oldest = this.sessions.keys().next();
      if (oldest.done) break;
      this.sessions.delete(oldest.value);
    }
  }
}
