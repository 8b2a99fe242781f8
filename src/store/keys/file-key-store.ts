import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { applicationKeySchema } from './key-record.js';
import type { ApplicationKey } from './key-record.js';
import type { KeyStore } from './key-store.js';

const keyFileSchema = z
  .object({
    version: z.literal(1),
    admin_hash: z.string().optional(),
    keys: z.array(applicationKeySchema),
  })
  .strict();
type KeyFile = z.output<typeof keyFileSchema>;

/**
 * Modification time, size and inode: a rename by another process changes at least the inode. undefined when there
 * is no file: a gateway without application keys has none, and it asks on every request, where a throwing
 * `statSync` built an ENOENT error (with its stack) each time, ~4-10 us of the request's CPU.
 */
function fileVersion(location: string): string | undefined {
  const stats = statSync(location, { throwIfNoEntry: false });
  return stats === undefined ? undefined : `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
}

export function keyFilePath(dataDir: string, configured?: string): string {
  return configured ?? join(dataDir, 'keys.json');
}

/**
 * Keys in one JSON file (mode 0600), replaced atomically. The file is re-read when its modification time
 * changes, so `hermes-router keys create|revoke` run beside a live gateway take effect on its next request.
 */
export class FileKeyStore implements KeyStore {
  readonly version = 2;
  readonly location: string;
  private state: KeyFile = { version: 1, keys: [] };
  private seenVersion = '';

  constructor(location: string) {
    this.location = location;
    this.refresh();
  }

  list(): ApplicationKey[] {
    this.refresh();
    return this.state.keys.map((key) => ({ ...key }));
  }

  find(id: string): ApplicationKey | undefined {
    this.refresh();
    return this.state.keys.find((key) => key.id === id);
  }

  async add(key: ApplicationKey): Promise<void> {
    this.refresh();
    if (this.state.keys.some((existing) => existing.id === key.id)) throw new Error(`a key with id ${key.id} exists`);
    this.write({ ...this.state, keys: [...this.state.keys, key] });
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    this.refresh();
    const key = this.state.keys.find((existing) => existing.id === id);
    if (!key || key.revoked_at !== undefined) return false;
    this.write({ ...this.state, keys: this.state.keys.map((existing) => (existing.id === id ? { ...existing, revoked_at: at.toISOString() } : existing)) });
    return true;
  }

  adminHash(): string | undefined {
    this.refresh();
    return this.state.admin_hash;
  }

  async setAdminHash(hash: string): Promise<void> {
    this.refresh();
    this.write({ ...this.state, admin_hash: hash });
  }

  private refresh(): void {
    let version: string | undefined;
    try {
      version = fileVersion(this.location);
    } catch {
      return;
    }
    if (version === undefined || version === this.seenVersion) return;
    let content: unknown;
    try {
      content = JSON.parse(readFileSync(this.location, 'utf8'));
    } catch (error) {
      // Truncated (a full disk, a copy cut short) or damaged: refuse, and say which file, so it can be restored.
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`${this.location} is not a valid key file (not JSON: ${detail}); restore it from a backup, or move it away and create the keys again`);
    }
    const parsed = keyFileSchema.safeParse(content);
    // A damaged key file must not silently open the gateway: refuse loudly instead.
    if (!parsed.success) throw new Error(`${this.location} is not a valid key file: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    this.state = parsed.data;
    this.seenVersion = version;
  }

  private write(next: KeyFile): void {
    mkdirSync(dirname(this.location), { recursive: true });
    const temporary = `${this.location}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.location);
    this.state = next;
    this.seenVersion = fileVersion(this.location) ?? '';
  }
}
