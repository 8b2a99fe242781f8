import { createHash } from 'node:crypto';
import type { Turn } from '../core/turn.js';
import type { CacheStore, CachedResponse } from '../store/cache-store.js';
import type { CacheConfig } from '../config/cache.js';

/** Body fields that do not change the answer and must not split the cache. */
export const ignoredFields: ReadonlySet<string> = new Set(['stream_options', 'user', 'metadata', 'session_id']);

/** Why a request is not served from or stored in the cache; undefined when it may be. */
export function cacheIneligibility(turn: Turn, config: CacheConfig): string | undefined {
  if (!config.enabled) return 'cache off';
  if (turn.hints.toolLoop) return 'tool loop';
  if (turn.messages.some((message) => message.role === 'tool' || message.toolCallNames.length > 0)) return 'tool loop';
  if (turn.tools.length > 0 && !config.include_tools) return 'request offers tools';
  const temperature = turn.body.temperature;
  // An absent temperature is the provider's default (usually 1): only an explicit 0 is deterministic.
  if ((typeof temperature !== 'number' || temperature > 0) && !config.include_nonzero_temperature) return 'temperature is not 0';
  return undefined;
}

/**
 * The cache key: the client key's namespace, the API format, the stream flag, whether topic routing was skipped,
 * and a hash of the normalised body (the requested model included, so a switch to another model never answers
 * from an old one).
 */
export function cacheKey(turn: Turn, originalTools: unknown): string {
  const hash = createHash('sha256');
  hash.update(`${turn.clientKeyId ?? '-'}\u0000${turn.format}\u0000${turn.stream ? 'stream' : 'json'}\u0000${turn.topicSkipped ? 'skip' : ''}\u0000`);
  const normalised: Record<string, unknown> = {};
  for (const key of Object.keys(turn.body).sort()) {
    if (ignoredFields.has(key)) continue;
    normalised[key] = key === 'tools' ? originalTools : turn.body[key];
  }
  hash.update(JSON.stringify(normalised));
  return `${turn.clientKeyId ?? 'anonymous'}:${hash.digest('hex')}`;
}

/** The exact response cache; the store never throws into a request (a failing store is a miss). */
export class ResponseCache {
  constructor(
    private readonly store: CacheStore,
    readonly config: CacheConfig,
  ) {}

  async lookup(key: string): Promise<CachedResponse | undefined> {
    try {
      return await this.store.get(key);
    } catch {
      return undefined;
    }
  }

  remember(key: string, value: CachedResponse): void {
    void this.store.set(key, value, this.config.ttl_ms).catch(() => undefined);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
