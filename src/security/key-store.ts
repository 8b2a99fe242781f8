import type { ApplicationKey } from './key-record.js';

/**
 * Version 1 of where keys live. Synchronous on purpose: lookups happen on every request and the embedded
 * implementation keeps everything in memory; a networked store would cache behind the same calls.
 */
export interface KeyStore {
  readonly version: 1;
  /** Every key, revoked ones included. */
  list(): ApplicationKey[];
  find(id: string): ApplicationKey | undefined;
  add(key: ApplicationKey): void;
  /** Marks a key revoked; false when no such key exists or it already was. */
  revoke(id: string, at: Date): boolean;
  /** The admin key's hash when one was generated and stored. */
  adminHash(): string | undefined;
  setAdminHash(hash: string): void;
  /** Where it lives, for messages. */
  readonly location: string;
}

export function activeKeys(store: KeyStore): ApplicationKey[] {
  return store.list().filter((key) => key.revoked_at === undefined);
}
