import type { SemanticCacheEntry } from '../semantic-cache-store.js';

/** One list element as this instance decoded it. */
export interface MirroredEntry {
  entry: SemanticCacheEntry;
  /** Never served after this; a malformed element is kept as an entry that is never live, so positions still line up. */
  expiresAt: number;
  /** The namespace's sequence number the add that pushed this element was given. */
  sequence: number;
}

/**
 * An exact copy of one namespace's Redis list as of sequence `sequence` of generation `epoch`: element `i` is
 * `entries[i]`. Never mutated; a newer state replaces it whole, so a lookup holding an older one is unaffected.
 */
export interface MirroredNamespace {
  epoch: string;
  sequence: number;
  entries: readonly MirroredEntry[];
}

interface Held {
  state: MirroredNamespace;
  bytes: number;
  /** The latest expiry of its entries: after it nothing could be served and its Redis keys are gone too. */
  liveUntil: number;
}

/**
 * What one instance keeps of the Redis semantic cache so that a lookup fetches only what was added since: 32 MiB
 * holds about 21 full namespaces at the defaults (256 vectors × 1536 dimensions ≈ 1.5 MiB), and far more small
 * ones. A namespace that is not held costs one full read, as before the mirror existed.
 */
export const defaultSemanticMirrorBytes = 32 * 1024 * 1024;

/** Object, array and map overhead per entry, counted against the budget with its vector and key. */
const entryOverheadBytes = 160;

function entryBytes(mirrored: MirroredEntry): number {
  const vector = mirrored.entry.vector;
  const vectorBytes = vector instanceof Float32Array ? vector.byteLength : vector.length * 8;
  return vectorBytes + mirrored.entry.answerKey.length * 2 + entryOverheadBytes;
}

/**
 * The per-instance mirror: namespaces in least-recently-used order under a total byte budget. It is never a
 * source of truth: every lookup asks Redis for the current sequence first, and a state is only ever replaced by
 * one computed from it (compare and set), so two lookups racing on one namespace cannot leave a mixed copy.
 */
export class SemanticCacheMirror {
  private readonly namespaces = new Map<string, Held>();
  private totalBytes = 0;

  constructor(
    readonly budgetBytes: number,
    private readonly now: () => number,
  ) {}

  /** The held state (now the most recently used), or undefined; a namespace whose every entry expired is dropped. */
  get(namespace: string): MirroredNamespace | undefined {
    const held = this.namespaces.get(namespace);
    if (!held) return undefined;
    this.namespaces.delete(namespace);
    if (held.liveUntil <= this.now()) {
      this.totalBytes -= held.bytes;
      return undefined;
    }
    this.namespaces.set(namespace, held);
    return held.state;
  }

  /**
   * Holds `next` if the namespace still holds `expected` (the state the lookup started from); otherwise another
   * lookup got there first and its state stays. `next` undefined forgets the namespace (its keys are gone).
   */
  replace(namespace: string, expected: MirroredNamespace | undefined, next: MirroredNamespace | undefined): void {
    const current = this.namespaces.get(namespace);
    if (current?.state !== expected) return;
    if (current) {
      this.namespaces.delete(namespace);
      this.totalBytes -= current.bytes;
    }
    if (!next) return;
    let bytes = 0;
    let liveUntil = 0;
    for (const mirrored of next.entries) {
      bytes += entryBytes(mirrored);
      liveUntil = Math.max(liveUntil, mirrored.expiresAt);
    }
    // Nothing live (the keys are gone or about to be) is not worth holding; a namespace over the whole budget is read in full each time.
    if (bytes > this.budgetBytes || liveUntil <= this.now()) return;
    this.namespaces.set(namespace, { state: next, bytes, liveUntil });
    this.totalBytes += bytes;
    this.shrink();
  }

  /** Bytes held now (for tests and the budget). */
  get heldBytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.namespaces.size;
  }

  clear(): void {
    this.namespaces.clear();
    this.totalBytes = 0;
  }

  /** Over budget: expired namespaces go first, then the least recently used. */
  private shrink(): void {
    if (this.totalBytes <= this.budgetBytes) return;
    const now = this.now();
    for (const [namespace, held] of this.namespaces) {
      if (held.liveUntil > now) continue;
      this.namespaces.delete(namespace);
      this.totalBytes -= held.bytes;
    }
    for (const [namespace, held] of this.namespaces) {
      if (this.totalBytes <= this.budgetBytes) break;
      this.namespaces.delete(namespace);
      this.totalBytes -= held.bytes;
    }
  }
}
