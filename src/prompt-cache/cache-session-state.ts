import type { PromptCacheConfig, PromptCacheTtl } from '../config/prompt-cache.js';
import type { SessionRecord } from '../store/session-record.js';

const ttlMs: Record<PromptCacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

/*
 * What the optimizer remembers per session lives in the session record (`promptCache`): when its last turn came
 * (for the TTL policy) and which provider key wrote its cache (for key affinity). In a cluster the record is
 * shared, so the instance that serves a session's next turn knows its pace and warm key too.
 */

/**
 * The TTL for this turn of the session, and the turn noted. `auto` picks the 1-hour cache once two turns came
 * `long_ttl_after_gap_ms` or more apart (but within the hour, or the cache is gone anyway), and keeps it for the
 * session: an agent that paused once will pause again, and a 5-minute cache would be written afresh each time.
 */
export function ttlForTurn(record: SessionRecord, config: PromptCacheConfig, now: number = Date.now()): PromptCacheTtl {
  const session = record.promptCache;
  let ttl: PromptCacheTtl = config.ttl === 'auto' ? (session?.ttl ?? '5m') : config.ttl;
  if (config.ttl === 'auto' && session) {
    const gap = now - session.lastSeenAt;
    if (gap >= config.long_ttl_after_gap_ms && gap <= ttlMs['1h']) ttl = '1h';
  }
  record.promptCache = { ...session, lastSeenAt: now, ttl };
  return ttl;
}

/** The key whose cache is still warm for this session on this provider, if any. */
export function warmKey(record: SessionRecord, providerId: string, config: PromptCacheConfig, now: number = Date.now()): string | undefined {
  if (!config.key_affinity) return undefined;
  const key = record.promptCache?.key;
  if (!key || key.providerId !== providerId || key.warmUntil <= now) return undefined;
  return key.keyId;
}

/** A call answered: its key holds the session's cache for one TTL from now (a read refreshes it too). */
export function cacheAnswered(record: SessionRecord, providerId: string, keyId: string, now: number = Date.now()): void {
  const session = record.promptCache;
  if (!session) return;
  session.key = { providerId, keyId, warmUntil: now + ttlMs[session.ttl] };
}
