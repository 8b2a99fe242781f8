import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChangeAnnouncements } from '../change-announcements.js';

export interface RedisChangeAnnouncementsOptions {
  /** Commands: must not queue while disconnected (see `createRedisCommandClient`). */
  client: Redis;
  /**
   * The cluster's connection in subscriber mode (shared with the routing-state channel). Without one the
   * changes are only announced, never heard (the `keys` and `models probe` CLI commands).
   */
  subscriber?: Redis;
  keyPrefix: string;
  /** What changed, and the channel's name after the prefix: each store re-reads only on its own channel. */
  channel: 'keys' | 'probes';
  instanceId?: string;
}

/**
 * "Re-read the store" announcements on the pub/sub channel `<prefix><channel>` (`keys` for application keys,
 * `probes` for model probe results): `{origin}` only, never the data. Delivery is at most once (a reconnect
 * loses what was sent meanwhile), which each store's periodic resync covers.
 */
export class RedisChangeAnnouncements implements ChangeAnnouncements {
  readonly specificationVersion = 'v1' as const;
  readonly instanceId: string;
  readonly #client: Redis;
  readonly #subscriber: Redis | undefined;
  readonly #channelName: string;
  readonly #listeners = new Set<() => void>();
  readonly #subscribed: Promise<unknown>;
  readonly #onMessage = (channel: string, text: string): void => {
    if (channel !== this.#channelName) return;
    let origin: unknown;
    try {
      origin = (JSON.parse(text) as { origin?: unknown }).origin;
    } catch {
      return;
    }
    if (typeof origin !== 'string' || origin === this.instanceId) return;
    for (const listener of this.#listeners) listener();
  };

  constructor(options: RedisChangeAnnouncementsOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.#client = options.client;
    this.#subscriber = options.subscriber;
    this.#channelName = `${options.keyPrefix}${options.channel}`;
    this.#subscriber?.on('message', this.#onMessage);
    this.#subscribed = this.#subscriber?.subscribe(this.#channelName).catch(() => undefined) ?? Promise.resolve();
  }

  /** Resolves once the SUBSCRIBE went through (or failed); tests wait for it before announcing. */
  whenSubscribed(): Promise<unknown> {
    return this.#subscribed;
  }

  async announce(): Promise<void> {
    await this.#client.publish(this.#channelName, JSON.stringify({ origin: this.instanceId }));
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.#subscriber?.off('message', this.#onMessage);
    // The subscriber connection belongs to the cluster stores, which close it.
  }
}
