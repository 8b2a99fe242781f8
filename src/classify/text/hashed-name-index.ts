/**
 * Feature name → row, without keeping the names: an open-addressing table (linear probing, at most 70% full) whose
 * slots hold two independent 32-bit hashes of a name and its row, side by side in one Int32Array. A decision only
 * asks which row a feature it made has (its own names explain it), so the table need not hold strings: for the
 * topic model's ~180,000 names a `Map` held ~14 MB of heap (a key string and an entry each), this ~3 MB.
 *
 * Two different names with the same 64-bit pair (about 1 in 10^9 for a table this size) are kept apart: the later
 * one is looked up by name in a small exact map (so is a name listed twice, whose last row wins, as in a `Map`). A name the table never saw matches a row only if both hashes
 * equal that row's, about one lookup in 10^14: decisions are those of the `Map` it replaced.
 */
export class HashedNameIndex {
  /** Per slot: first hash, second hash, row + 1 (0: empty). */
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly exact = new Map<string, number>();
  readonly size: number;

  constructor(names: readonly string[]) {
    let capacity = 8;
    while (capacity * 0.7 < names.length) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * 3);
    this.size = names.length;
    names.forEach((name, row) => {
      const [first, second] = nameHashes(name);
      let slot = first & this.mask;
      for (;;) {
        const base = slot * 3;
        if (this.slots[base + 2] === 0) {
          this.slots[base] = first;
          this.slots[base + 1] = second;
          this.slots[base + 2] = row + 1;
          return;
        }
        if (this.slots[base] === first && this.slots[base + 1] === second) {
          this.exact.set(name, row);
          return;
        }
        slot = (slot + 1) & this.mask;
      }
    });
  }

  get(name: string): number | undefined {
    if (this.exact.size) {
      const row = this.exact.get(name);
      if (row !== undefined) return row;
    }
    const [first, second] = nameHashes(name);
    let slot = first & this.mask;
    for (;;) {
      const base = slot * 3;
      const row = this.slots[base + 2]!;
      if (row === 0) return undefined;
      if (this.slots[base] === first && this.slots[base + 1] === second) return row - 1;
      slot = (slot + 1) & this.mask;
    }
  }
}

const pair: [number, number] = [0, 0];

/** Two 32-bit hashes of a string's UTF-16 code units (FNV-1a and a multiply-rotate), each finished with murmur3's mix. */
function nameHashes(name: string): [number, number] {
  let first = 0x811c9dc5;
  let second = 0x9747b28c;
  for (let index = 0; index < name.length; index += 1) {
    const code = name.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
    second = (second << 13) | (second >>> 19);
  }
  pair[0] = mix(first);
  pair[1] = mix(second ^ name.length);
  return pair;
}

function mix(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash | 0;
}
