import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';

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

  private constructor(bytes: Uint8Array, starts: Uint32Array, slots: Int32Array) {
    this.#bytes = bytes;
    this.#starts = starts;
    this.#slots = slots;
    this.#mask = slots.length - 1;
  }

  /** Reads and decodes a `.tiktoken` file at once (the CLI and evals; about a quarter of a second for o200k). */
  static fromTiktokenFile(path: string): BytePairRanks {
    const parser = new TiktokenParser(path, readFileSync(path));
    while (!parser.step(Number.POSITIVE_INFINITY));
    return parser.ranks();
  }

  /**
   * The same table without holding the event loop: an asynchronous file read, then decoding and hashing in
   * slices of at most `sliceMs`, each followed by a turn of the event loop, so a serving gateway keeps answering
   * (and hearing its cluster peers) while it loads.
   */
  static async fromTiktokenFileYielding(path: string, sliceMs: number): Promise<BytePairRanks> {
    const parser = new TiktokenParser(path, await readFile(path));
    while (!parser.step(performance.now() + sliceMs)) await nextTurn();
    return parser.ranks();
  }

  /** For the parser below: the decoded arrays and the filled table. */
  static fromTable(bytes: Uint8Array, starts: Uint32Array, slots: Int32Array): BytePairRanks {
    return new BytePairRanks(bytes, starts, slots);
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

/**
 * Decodes a `.tiktoken` file in one pass over its bytes, straight into the typed arrays (splitting it into 200,000
 * line strings and buffers first would make tens of megabytes of garbage, and the heap would keep the room), then
 * fills the open-addressing table. Resumable: `step(deadline)` works until the deadline and says whether it is done.
 */
class TiktokenParser {
  readonly #path: string;
  readonly #file: Uint8Array;
  readonly #bytes: Uint8Array;
  readonly #starts: number[] = [];
  #written = 0;
  #position = 0;
  /** Set once every line is decoded: the trimmed arrays and the table being filled. */
  #table: { bytes: Uint8Array; starts: Uint32Array; slots: Int32Array; hashed: number } | undefined;

  constructor(path: string, file: Uint8Array) {
    this.#path = path;
    this.#file = file;
    this.#bytes = new Uint8Array(Math.ceil((file.length * 3) / 4));
  }

  /** Works until `deadline` (a `performance.now()` time, looked at every 1,024 lines or tokens); true when done. */
  step(deadline: number): boolean {
    if (!this.#table) {
      while (this.#position < this.#file.length) {
        this.#decodeLine();
        if ((this.#starts.length & 1023) === 0 && performance.now() >= deadline) return false;
      }
      this.#starts.push(this.#written);
      const count = this.#starts.length - 1;
      let size = 1;
      while (size < count * 2) size *= 2;
      this.#table = { bytes: this.#bytes.slice(0, this.#written), starts: Uint32Array.from(this.#starts), slots: new Int32Array(size), hashed: 0 };
    }
    const table = this.#table;
    const count = table.starts.length - 1;
    const mask = table.slots.length - 1;
    while (table.hashed < count) {
      const rank = table.hashed;
      let slot = hashBytes(table.bytes, table.starts[rank]!, table.starts[rank + 1]!) & mask;
      while (table.slots[slot] !== 0) slot = (slot + 1) & mask;
      table.slots[slot] = rank + 1;
      table.hashed += 1;
      if ((table.hashed & 1023) === 0 && performance.now() >= deadline) return table.hashed === count;
    }
    return true;
  }

  ranks(): BytePairRanks {
    const table = this.#table;
    if (!table || table.hashed < table.starts.length - 1) throw new Error(`${this.#path}: ranks read before the file was decoded`);
    return BytePairRanks.fromTable(table.bytes, table.starts, table.slots);
  }

  /** One `<base64> <rank>\n` line: four characters make three bytes, `=` pads the last group. */
  #decodeLine(): void {
    const file = this.#file;
    const bytes = this.#bytes;
    let position = this.#position;
    let written = this.#written;
    this.#starts.push(written);
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
    if (rank !== this.#starts.length - 1) throw new Error(`${this.#path}: rank ${rank} out of order (expected ${this.#starts.length - 1})`);
    this.#position = position;
    this.#written = written;
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
