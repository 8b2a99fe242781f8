import { headerLine, readHeaderLine } from './header-line-file.js';

/**
 * The neighbour index's file (data/tool-routing/toolset-neighbours.bin, neighbour-index.ts): a JSON header line
 * padded with spaces to a multiple of four bytes, then little-endian arrays, each a view over the one file read:
 *   terms         Uint32 × T      term hashes (neighbour-terms.ts), ascending, for a binary search
 *   idf           Float32 × T     each term's inverse document frequency
 *   starts        Uint32 × (T+1)  term t's postings are [starts[t], starts[t + 1])
 *   norms         Float32 × D     each document's vector length over the kept terms
 *   labels        Uint32 × D      each document's toolsets as bits of `header.labels`
 *   documents     Uint32 × P      the documents each term occurs in, ascending per term
 *   counts        Uint8 × P       how often (capped at 255)
 * Deterministic: the same documents give the same bytes, so `build-neighbours.ts --check` compares the shipped file.
 */
const magic = 'toolset-neighbours/1';

export interface NeighbourTable {
  labels: readonly string[];
  terms: Uint32Array;
  idf: Float32Array;
  starts: Uint32Array;
  norms: Float32Array;
  documentLabels: Uint32Array;
  documents: Uint32Array;
  counts: Uint8Array;
  /** What the index was built from, for readers of the header. */
  about: { source: string; maximumDocumentShare: number };
}

interface Header {
  format: typeof magic;
  labels: string[];
  source: string;
  maximumDocumentShare: number;
  termCount: number;
  documentCount: number;
  postingCount: number;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function encodeNeighbourTable(table: NeighbourTable): Uint8Array {
  if (!littleEndian) throw new Error('toolset neighbours: writing the index needs a little-endian machine');
  const header: Header = {
    format: magic,
    labels: [...table.labels],
    ...table.about,
    termCount: table.terms.length,
    documentCount: table.norms.length,
    postingCount: table.documents.length,
  };
  const headerText = headerLine(header);
  const layout = sections(headerText.length, header);
  const bytes = new Uint8Array(layout.end);
  Buffer.from(bytes.buffer).write(headerText, 0, 'latin1');
  const put = (at: number, array: Uint32Array | Float32Array | Uint8Array): void => bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
  put(layout.terms, table.terms);
  put(layout.idf, table.idf);
  put(layout.starts, table.starts);
  put(layout.norms, table.norms);
  put(layout.labels, table.documentLabels);
  put(layout.documents, table.documents);
  put(layout.counts, table.counts);
  return bytes;
}

export function decodeNeighbourTable(file: Uint8Array): NeighbourTable {
  if (!littleEndian) throw new Error('toolset neighbours: the index file is little-endian and this machine is not');
  const { header, offset, bytes } = readHeaderLine<Header>(file, 'toolset neighbours');
  if (header.format !== magic) throw new Error(`unknown toolset-neighbours format ${String(header.format)}`);
  const layout = sections(offset, header);
  if (file.length !== layout.end) throw new Error('toolset neighbours: file length does not match its header');
  const base = bytes.byteOffset;
  const { termCount, documentCount, postingCount } = header;
  return {
    labels: header.labels,
    terms: new Uint32Array(bytes.buffer, base + layout.terms, termCount),
    idf: new Float32Array(bytes.buffer, base + layout.idf, termCount),
    starts: new Uint32Array(bytes.buffer, base + layout.starts, termCount + 1),
    norms: new Float32Array(bytes.buffer, base + layout.norms, documentCount),
    documentLabels: new Uint32Array(bytes.buffer, base + layout.labels, documentCount),
    documents: new Uint32Array(bytes.buffer, base + layout.documents, postingCount),
    counts: new Uint8Array(bytes.buffer, base + layout.counts, postingCount),
    about: { source: header.source, maximumDocumentShare: header.maximumDocumentShare },
  };
}

function sections(headerLength: number, header: Pick<Header, 'termCount' | 'documentCount' | 'postingCount'>) {
  const terms = headerLength;
  const idf = terms + header.termCount * 4;
  const starts = idf + header.termCount * 4;
  const norms = starts + (header.termCount + 1) * 4;
  const labels = norms + header.documentCount * 4;
  const documents = labels + header.documentCount * 4;
  const counts = documents + header.postingCount * 4;
  return { terms, idf, starts, norms, labels, documents, counts, end: counts + header.postingCount };
}
