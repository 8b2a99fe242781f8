import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { KeyChanges } from '../key-changes.js';

export interface RedisProbeChangesOptions {
  /** Commands: must not queue while disconnected (see `createRedisCommandClient`). */
  client: Redis;
  /** The cluster's subscriber connection; without one changes are only announced (the `models probe` CLI). */
  subscriber?: Redis;
  keyPrefix: string;
  instanceId?: string;
}

/**
 * "Probe results changed, re-read them" on the pub/sub channel `<prefix>probes`: `{origin}` only, never the
 * results. The same contract as the key announcements (`KeyChanges` v1: at most once, the resync covers a loss),
 * on a channel of its own so a probe run does not make every instance re-read its keys.
 */
export class RedisProbeChanges implements KeyChanges {
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

  constructor(options: RedisProbeChangesOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.#client = options.client;
    this.#subscriber = options.subscriber;
    this.#channelName = `${options.keyPrefix}probes`;
    this.#subscriber?.on('message', this.#onMessage);
    this.#subscribed = this.#subscriber?.subscribe(this.#channelName).catch(() => undefined) ?? Promise.resolve();
  }

  /** Resolves once the SUBSCRIBE went through (or failed). */
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
