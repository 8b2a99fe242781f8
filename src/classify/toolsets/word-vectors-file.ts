import { headerLine, readHeaderLine } from './header-line-file.js';

/**
 * The shipped word-vector table (data/tool-routing/word-vectors.bin): one Int8 vector per word of the word-cluster
 * table, in that table's order (so a word is found by the clusters' hash table, not a second one). Layout: a JSON
 * header line (format, source, counts) padded to a multiple of four bytes, then `wordCount × dimensions` Int8
 * components, word by word. A component is the unit vector's × 127, rounded: 3.8 MiB for 40,000 words of 100
 * dimensions instead of 15.3 MiB of Float32, and cosines within 0.015 of the source's (0.0025 on average over
 * 20,000 random pairs of words).
 */
const magic = 'word-vectors/1';

export interface WordVectorTable {
  dimensions: number;
  /** `wordCount × dimensions` components, each a unit vector's × 127. */
  components: Int8Array;
  about: { source: string };
}

interface Header {
  format: typeof magic;
  source: string;
  dimensions: number;
  wordCount: number;
}

export function encodeWordVectors(table: WordVectorTable): Uint8Array {
  const { dimensions, components } = table;
  if (dimensions <= 0 || components.length % dimensions !== 0) throw new Error('word vectors: components are not whole vectors');
  const header: Header = { format: magic, source: table.about.source, dimensions, wordCount: components.length / dimensions };
  const headerText = headerLine(header);
  const bytes = new Uint8Array(headerText.length + components.length);
  Buffer.from(bytes.buffer).write(headerText, 0, 'latin1');
  bytes.set(new Uint8Array(components.buffer, components.byteOffset, components.length), headerText.length);
  return bytes;
}

export function decodeWordVectors(file: Uint8Array): WordVectorTable & { wordCount: number } {
  const { header, offset, bytes } = readHeaderLine<Header>(file, 'word vectors');
  if (header.format !== magic) throw new Error(`unknown word-vector format ${String(header.format)}`);
  const length = header.wordCount * header.dimensions;
  if (file.length !== offset + length) throw new Error('word vectors: file length does not match its header');
  return { dimensions: header.dimensions, wordCount: header.wordCount, components: new Int8Array(bytes.buffer, bytes.byteOffset + offset, length), about: { source: header.source } };
}
