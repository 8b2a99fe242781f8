/**
 * Which deployment last answered each session, so the next turn goes back to it and the provider's prompt
 * cache stays warm. An interface so several gateway instances can share it through Redis later.
 */
export interface SessionAffinityStore {
  /** The `provider/model` that last succeeded for the session, if remembered and not expired. */
  get(sessionId: string): string | undefined;
  remember(sessionId: string, qualifiedName: string): void;
}

/** In-process affinity with a TTL and a size cap (oldest entries go first). */
export class MemorySessionAffinity implements SessionAffinityStore {
  private readonly entries = new Map<string, { qualifiedName: string; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxSessions: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(sessionId: string): string | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry.qualifiedName;
  }

  remember(sessionId: string, qualifiedName: string): void {
    // Delete first so the Map's insertion order doubles as recency order for eviction.
    this.entries.delete(sessionId);
    this.entries.set(sessionId, { qualifiedName, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxSessions) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
