import { headerLine, readHeaderLine } from './header-line-file.js';

/**
 * The shipped word-cluster table (data/tool-routing/word-clusters.bin) as typed arrays over one file read: no JSON
 * parse, no 40,000-entry Map. Layout: a JSON header line (format, counts) padded with spaces to a multiple of four
 * bytes, then, little-endian,
 *   starts   Uint32 × (words + 1)  word i is text bytes [starts[i], starts[i + 1])
 *   slots    Uint16 × slotCount    open addressing, linear probing: word index + 1, or 0 for an empty slot
 *   fine     Uint16 × words        fine cluster id of word i
 *   coarse   Uint16 × words        coarse cluster id of word i
 *   text     the words' bytes, one after another (ASCII: the table keeps only [a-z'-] words)
 * The hash table is built when the file is written, so loading is a read and five views; a lookup hashes the word
 * (FNV-1a over its UTF-16 code units) and compares bytes in one or two slots. Deterministic: the same words and
 * ids give the same bytes, so the table's test can check the shipped file against a fresh encoding.
 */
const magic = 'word-clusters/2';

export interface WordClusterTable {
  words: readonly string[];
  fine: Uint16Array;
  coarse: Uint16Array;
  /** What the table was distilled from and how many clusters each level has (kept in the header, for readers). */
  about: { source: string; fineClusters: number; coarseClusters: number };
}

interface Header {
  format: typeof magic;
  source: string;
  fineClusters: number;
  coarseClusters: number;
  wordCount: number;
  slotCount: number;
  textBytes: number;
}

/** The decoded views; `text` holds the words' bytes. */
export interface WordClusterViews {
  starts: Uint32Array;
  slots: Uint16Array;
  fine: Uint16Array;
  coarse: Uint16Array;
  text: Uint8Array;
}

/** FNV-1a over the word's UTF-16 code units (the table's words are ASCII, so their bytes are their code units). */
export function wordHash(word: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < word.length; index += 1) hash = Math.imul(hash ^ word.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function encodeWordClusters(table: WordClusterTable): Uint8Array {
  const { words, fine, coarse } = table;
  if (fine.length !== words.length || coarse.length !== words.length) throw new Error('word clusters: one fine and one coarse id per word');
  if (words.length >= 0xffff) throw new Error('word clusters: at most 65,534 words (slots hold Uint16 indices)');
  // A load factor of at most ~0.3 keeps probes short: most lookups touch one slot.
  let slotCount = 1024;
  while (slotCount < words.length * 3) slotCount *= 2;
  const text = Buffer.from(words.join(''), 'latin1');
  if (words.some((word) => !/^[\x21-\x7e]+$/.test(word))) throw new Error('word clusters: words must be printable ASCII');
  const header: Header = { format: magic, ...table.about, wordCount: words.length, slotCount, textBytes: text.length };
  const headerText = headerLine(header);
  const layout = sections(headerText.length, header);
  const bytes = new Uint8Array(layout.end);
  Buffer.from(bytes.buffer).write(headerText, 0, 'latin1');
  const view = new DataView(bytes.buffer);
  let start = 0;
  words.forEach((word, index) => {
    view.setUint32(layout.starts + index * 4, start, true);
    start += word.length;
  });
  view.setUint32(layout.starts + words.length * 4, start, true);
  const slots = new Uint16Array(slotCount);
  words.forEach((word, index) => {
    // A word listed twice keeps its last index, as the Map of the JSON table did.
    let slot = wordHash(word) & (slotCount - 1);
    while (slots[slot] !== 0 && words[slots[slot]! - 1] !== word) slot = (slot + 1) & (slotCount - 1);
    slots[slot] = index + 1;
  });
  slots.forEach((value, slot) => view.setUint16(layout.slots + slot * 2, value, true));
  fine.forEach((value, index) => view.setUint16(layout.fine + index * 2, value, true));
  coarse.forEach((value, index) => view.setUint16(layout.coarse + index * 2, value, true));
  bytes.set(text, layout.text);
  return bytes;
}

export function decodeWordClusters(file: Uint8Array): WordClusterViews & { about: WordClusterTable['about']; wordCount: number } {
  const { header, offset, bytes } = readHeaderLine<Header>(file, 'word clusters');
  if (header.format !== magic) throw new Error(`unknown word-cluster format ${String(header.format)}`);
  const layout = sections(offset, header);
  if (file.length !== layout.end) throw new Error('word clusters: file length does not match its header');
  const base = bytes.byteOffset;
  const { wordCount, slotCount } = header;
  const view = new DataView(bytes.buffer, base);
  const uint16 = (at: number, length: number) =>
    littleEndian ? new Uint16Array(bytes.buffer, base + at, length) : Uint16Array.from({ length }, (_, index) => view.getUint16(at + index * 2, true));
  const starts = littleEndian
    ? new Uint32Array(bytes.buffer, base + layout.starts, wordCount + 1)
    : Uint32Array.from({ length: wordCount + 1 }, (_, index) => view.getUint32(layout.starts + index * 4, true));
  return {
    about: { source: header.source, fineClusters: header.fineClusters, coarseClusters: header.coarseClusters },
    wordCount,
    starts,
    slots: uint16(layout.slots, slotCount),
    fine: uint16(layout.fine, wordCount),
    coarse: uint16(layout.coarse, wordCount),
    text: new Uint8Array(bytes.buffer, base + layout.text, header.textBytes),
  };
}

/** Byte offsets of each section after a header of `headerLength` bytes (a multiple of four). */
function sections(headerLength: number, header: Pick<Header, 'wordCount' | 'slotCount' | 'textBytes'>) {
  const starts = headerLength;
  const slots = starts + (header.wordCount + 1) * 4;
  const fine = slots + header.slotCount * 2;
  const coarse = fine + header.wordCount * 2;
  const text = coarse + header.wordCount * 2;
  return { starts, slots, fine, coarse, text, end: text + header.textBytes };
}
