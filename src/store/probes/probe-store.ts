import type { ProbeFile, ProbeResult } from './probe-results.js';

/**
 * Where `hermes-router models probe` keeps what it learned (version 1): `model-probes.json` in the data
 * directory for one instance, Postgres for a cluster (so a probe run on one machine serves every instance).
 */
export interface ProbeStore {
  readonly version: 1;
  /** For messages: the file path, or the Postgres table. */
  readonly location: string;
  /** Every stored result, keyed `provider/model`. */
  read(): Promise<ProbeFile>;
  /**
   * Stores one model's result over the previous one: a capability this run left undefined (rate limited, say)
   * keeps what an earlier run learned. Returns the result now stored. Rejects when nothing could be stored.
   */
  merge(qualifiedName: string, result: ProbeResult): Promise<ProbeResult>;
  close(): Promise<void>;
}

/**
 * Probe results an instance follows while it runs (the cluster's Postgres copy): the gateway's catalog starts
 * from `current()` and takes every later change, so a probe run elsewhere needs no restart.
 */
export interface ProbeResultsFeed {
  current(): ProbeFile;
  /** Calls `listener` with the whole new set whenever it changed; returns the unsubscribe function. */
  onChange(listener: (probes: ProbeFile) => void): () => void;
}
