import { readFileSync } from 'node:fs';

/**
 * A byte-pair encoding's mergeable ranks in three typed arrays: every token's bytes back to back, where each
 * token starts, and an open-addressing hash table from bytes to rank. For o200k that is about 4 MB, where the
 * same table as JavaScript strings in a Map (gpt-tokenizer's form) holds ~15 MB of heap and needs a 2 MB script
 * compiled to build it. Read from a `.tiktoken` file (`<base64 bytes> <rank>` per line, ranks 0…n-1).
 */
export class BytePairRanks {
  readonly #bytes: Uint8Array;
  /** Token r's bytes are `bytes[starts[r] .. starts[r + 1])`. */
  readonly #starts: Uint32Array;
  /** Rank + 1 per slot; 0 is an empty slot. */
  readonly #slots: Int32Array;
  readonly #mask: number;

  private constructor(bytes: Uint8Array, starts: Uint32Array) {
    this.#bytes = bytes;
    this.#starts = starts;
    const count = starts.length - 1;
    let size = 1;
    while (size < count * 2) size *= 2;
    this.#slots = new Int32Array(size);
    this.#mask = size - 1;
    for (let rank = 0; rank < count; rank += 1) {
      const start = starts[rank]!;
      const end = starts[rank + 1]!;
      let slot = hashBytes(bytes, start, end) & this.#mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask;
      this.#slots[slot] = rank + 1;
    }
  }

  /**
   * Decodes the file in one pass over its bytes, straight into the typed arrays: splitting it into 200,000 line
   * strings and buffers first would make tens of megabytes of garbage, and the heap would keep the room.
   */
  static fromTiktokenFile(path: string): BytePairRanks {
    const file = readFileSync(path);
    const bytes = new Uint8Array(Math.ceil((file.length * 3) / 4));
    const starts: number[] = [];
    let written = 0;
    let position = 0;
    while (position < file.length) {
      starts.push(written);
      // `<base64> <rank>\n`: four characters make three bytes, `=` pads the last group.
      let group = 0;
      let held = 0;
      while (position < file.length && file[position] !== 0x20) {
        const value = base64Values[file[position]!]!;
        position += 1;
        if (value < 0) continue;
        group = (group << 6) | value;
        held += 1;
        if (held === 4) {
          bytes[written++] = group >> 16;
          bytes[written++] = (group >> 8) & 0xff;
          bytes[written++] = group & 0xff;
          group = 0;
          held = 0;
        }
      }
      if (held === 3) {
        bytes[written++] = group >> 10;
        bytes[written++] = (group >> 2) & 0xff;
      } else if (held === 2) {
        bytes[written++] = group >> 4;
      }
      let rank = 0;
      for (position += 1; position < file.length && file[position] !== 0x0a; position += 1) rank = rank * 10 + (file[position]! - 0x30);
      position += 1;
      if (rank !== starts.length - 1) throw new Error(`${path}: rank ${rank} out of order (expected ${starts.length - 1})`);
    }
    starts.push(written);
    return new BytePairRanks(bytes.slice(0, written), Uint32Array.from(starts));
  }

  /** The rank of `piece[start .. end)`, or -1 when those bytes are no token. */
  rankOf(piece: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let slot = hashBytes(piece, start, end) & this.#mask;
    for (;;) {
      const entry = this.#slots[slot]!;
      if (entry === 0) return -1;
      const rank = entry - 1;
      const tokenStart = this.#starts[rank]!;
      if (this.#starts[rank + 1]! - tokenStart === length && sameBytes(this.#bytes, tokenStart, piece, start, length)) return rank;
      slot = (slot + 1) & this.#mask;
    }
  }
}

/** Each byte's base64 value; -1 for `=` padding and anything else. */
const base64Values = new Int8Array(256).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].forEach((character, value) => {
  base64Values[character.charCodeAt(0)] = value;
});

/** FNV-1a over a byte range (32-bit). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ bytes[index]!, 0x01000193);
  return hash >>> 0;
}

function sameBytes(left: Uint8Array, leftStart: number, right: Uint8Array, rightStart: number, length: number): boolean {
  for (let index = 0; index < length; index += 1) if (left[leftStart + index] !== right[rightStart + index]) return false;
  return true;
}
