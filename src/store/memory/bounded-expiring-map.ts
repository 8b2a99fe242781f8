interface Entry<Value> {
  value: Value;
  bytes: number;
  expiresAt: number;
}

/**
 * One process's bounded key–value memory: a TTL per entry and a bound on the total serialised size, least recently
 * used evicted first (a Map keeps insertion order, and a read re-inserts). The memory cache store and the memory
 * response store are this map behind their own interfaces.
 */
export class BoundedExpiringMap<Value> {
  private readonly entries = new Map<string, Entry<Value>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(key, entry);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** A value larger than the whole bound is not kept at all. */
  set(key: string, value: Value, ttlMs: number): void {
    const bytes = JSON.stringify(value).length;
    if (bytes > this.maxBytes) return;
    const existing = this.entries.get(key);
    if (existing) this.remove(key, existing);
    this.entries.set(key, { value, bytes, expiresAt: this.now() + ttlMs });
    this.bytes += bytes;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldestKey, oldest);
    }
  }

  /** Whether a live (unexpired) entry was removed. */
  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.remove(key, entry);
    return entry.expiresAt > this.now();
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private remove(key: string, entry: Entry<Value>): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
