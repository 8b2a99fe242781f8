import type { ApplicationKey } from './key-record.js';
import type { KeyStore } from './key-store.js';

/** Keys in memory only: for tests and embedders that keep keys elsewhere. */
export class MemoryKeyStore implements KeyStore {
  readonly version = 2;
  readonly location = '(memory)';
  private keys: ApplicationKey[] = [];
  private admin: string | undefined;

  list(): ApplicationKey[] {
    return this.keys.map((key) => ({ ...key }));
  }

  find(id: string): ApplicationKey | undefined {
    return this.keys.find((key) => key.id === id);
  }

  async add(key: ApplicationKey): Promise<void> {
    if (this.find(key.id)) throw new Error(`a key with id ${key.id} exists`);
    this.keys = [...this.keys, { ...key }];
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const key = this.find(id);
    if (!key || key.revoked_at !== undefined) return false;
    this.keys = this.keys.map((existing) => (existing.id === id ? { ...existing, revoked_at: at.toISOString() } : existing));
    return true;
  }

  adminHash(): string | undefined {
    return this.admin;
  }

  async setAdminHash(hash: string): Promise<void> {
    this.admin = hash;
  }
}
