import type { ApplicationKey } from './key-record.js';

/**
 * Version 2 of where keys live. Reads are synchronous on purpose: lookups happen on every request, so every
 * implementation answers them from memory (the networked one from a copy it keeps fresh). Writes are
 * asynchronous (version 2) so a networked store can refuse one it could not make durable and shared, instead of
 * a key living on one instance only.
 */
export interface KeyStore {
  readonly version: 2;
  /** Every key, revoked ones included, in the order they were added. */
  list(): ApplicationKey[];
  find(id: string): ApplicationKey | undefined;
  /** Resolves once the key is stored; rejects (and stores nothing) on a duplicate id or an unreachable store. */
  add(key: ApplicationKey): Promise<void>;
  /** Marks a key revoked; false when no such key exists or it already was. */
  revoke(id: string, at: Date): Promise<boolean>;
  /** The admin key's hash when one was generated and stored. */
  adminHash(): string | undefined;
  setAdminHash(hash: string): Promise<void>;
  /** Where it lives, for messages. */
  readonly location: string;
  /**
   * False while a networked store has never been read (its database was down at start): `list()` is then empty
   * because nothing is known, not because no key exists. Absent means always readable (memory, file).
   */
  readable?(): boolean;
}

export function activeKeys(store: KeyStore): ApplicationKey[] {
  return store.list().filter((key) => key.revoked_at === undefined);
}
