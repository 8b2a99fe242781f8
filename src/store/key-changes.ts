/**
 * How instances tell each other that application keys changed (version 1). The message carries no key data:
 * a receiver re-reads the keys from their store, so a lost or reordered message costs only latency (the
 * periodic resync catches up). Redis pub/sub serves a cluster; the memory hub serves stores in one process.
 */
export interface KeyChanges {
  readonly specificationVersion: 'v1';
  /** Tells every other instance to re-read the keys. */
  announce(): Promise<void>;
  /** Calls `listener` when another instance announced a change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}
