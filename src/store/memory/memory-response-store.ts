import type { ResponseStore, StoredResponse } from '../response-store.js';

interface Entry {
  value: StoredResponse;
  bytes: number;
  expiresAt: number;
}

/** One process's stored responses: TTL per entry and a bound on total size, least recently used evicted first. */
export class MemoryResponseStore implements ResponseStore {
  readonly specificationVersion = 'v1' as const;
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(id: string): Promise<StoredResponse | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(id, entry);
      return undefined;
    }
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value;
  }

  async set(id: string, value: StoredResponse, ttlMs: number): Promise<void> {
    const bytes = JSON.stringify(value).length;
    if (bytes > this.maxBytes) return;
    const existing = this.entries.get(id);
    if (existing) this.remove(id, existing);
    this.entries.set(id, { value, bytes, expiresAt: this.now() + ttlMs });
    this.bytes += bytes;
    for (const [oldestId, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldestId, oldest);
    }
  }

  async delete(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.remove(id, entry);
    return entry.expiresAt > this.now();
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
  }

  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }
}
