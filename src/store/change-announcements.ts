/**
 * How instances tell each other that a shared store changed (version 1): application keys, model probe
 * results, each on a channel of its own. The message carries no data: a receiver re-reads its store, so a lost
 * or reordered message costs only latency (the periodic resync catches up). Redis pub/sub serves a cluster; the
 * memory hub serves stores in one process.
 */
export interface ChangeAnnouncements {
  readonly specificationVersion: 'v1';
  /** Tells every other instance to re-read the store. */
  announce(): Promise<void>;
  /** Calls `listener` when another instance announced a change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}
