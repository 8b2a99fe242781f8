import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { MultilabelModelJson, PackedMultilabelModel } from './multilabel-model.js';
import { packMultilabelModel } from './multilabel-model.js';

/**
 * The shipped file of a multilabel model: a JSON header line (everything but the rows, plus `rowCount`), spaces up
 * to a multiple of four bytes, then the row buckets as little-endian Int32 and the scaled weights as little-endian
 * Int16, row-major. Decoding makes two typed-array views over the file's bytes, so loading costs a file read and
 * the runtime table build, not a JSON parse of 58,000 arrays (a quarter of a second and ~40 MB of garbage).
 * Deterministic: the same model gives the same bytes, so `train.ts --check` compares files byte for byte.
 */
const magic = 'hashed-ovr-logistic-packed/1';

interface PackedHeader extends Omit<MultilabelModelJson, 'rows'> {
  packed: typeof magic;
  rowCount: number;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function encodePackedModel(json: MultilabelModelJson): Uint8Array {
  const packed = packMultilabelModel(json);
  const { buckets, weights, ...rest } = packed;
  const header: PackedHeader = { packed: magic, ...rest, rowCount: buckets.length };
  let headerText = `${JSON.stringify(header)}\n`;
  const headerBytes = Buffer.byteLength(headerText);
  headerText = headerText.padEnd(headerText.length + ((4 - (headerBytes % 4)) % 4), ' ');
  const headerLength = Buffer.byteLength(headerText);
  const bytes = new Uint8Array(headerLength + buckets.length * 4 + weights.length * 2);
  Buffer.from(bytes.buffer).write(headerText, 0, 'utf8');
  const view = new DataView(bytes.buffer);
  for (let row = 0; row < buckets.length; row += 1) view.setInt32(headerLength + row * 4, buckets[row]!, true);
  const weightsStart = headerLength + buckets.length * 4;
  for (let index = 0; index < weights.length; index += 1) view.setInt16(weightsStart + index * 2, weights[index]!, true);
  return bytes;
}

/** The header line at the start of `bytes`, and where the row buckets start after it (aligned to 4). */
function readHeader(bytes: Uint8Array): { model: Omit<PackedHeader, 'packed' | 'rowCount'>; rowCount: number; offset: number } {
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) throw new Error('packed model: no header line');
  const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, newline).toString('utf8')) as PackedHeader;
  if (header.packed !== magic) throw new Error(`packed model: unknown format ${String(header.packed)}`);
  let offset = newline + 1;
  while (offset % 4 !== 0) offset += 1;
  const { packed: _packed, rowCount, ...model } = header;
  return { model, rowCount, offset };
}

export function decodePackedModel(file: Uint8Array): PackedMultilabelModel & { weights: Int16Array } {
  const { model, rowCount, offset } = readHeader(file);
  const weightCount = rowCount * model.labels.length;
  if (file.length !== offset + rowCount * 4 + weightCount * 2) throw new Error('packed model: file length does not match its header');
  // Typed-array views need aligned offsets: a large file read has its own ArrayBuffer (the views then share its
  // bytes); a Buffer cut from Node's pool may sit anywhere, and gets an aligned copy (Buffer#slice would not copy).
  const aligned = (file.byteOffset + offset) % 4 === 0;
  const body = aligned ? new Uint8Array(file.buffer, file.byteOffset + offset, file.length - offset) : Uint8Array.from(file.subarray(offset));
  if (littleEndian) return { ...model, buckets: new Int32Array(body.buffer, body.byteOffset, rowCount), weights: new Int16Array(body.buffer, body.byteOffset + rowCount * 4, weightCount) };
  const view = new DataView(body.buffer, body.byteOffset);
  const buckets = Int32Array.from({ length: rowCount }, (_, row) => view.getInt32(row * 4, true));
  const weights = Int16Array.from({ length: weightCount }, (_, index) => view.getInt16(rowCount * 4 + index * 2, true));
  return { ...model, buckets, weights };
}

/** The most `openPackedModel` reads looking for the header line (the toolset model's is ~2 KB: labels, biases, temperatures). */
const headerLimit = 1 << 20;
/** Bytes of weights read at a time, at most: as many whole rows as fit in one 4 KB memory page. */
const pageBytes = 4096;

/**
 * The same model as `decodePackedModel(readFileSync(path))`, reading only what the rows in use need: the header
 * and the row buckets (Int32, ~0.9 MB for the toolset model) at once, the weights (Int16, ~13 MB) a page at a time
 * (as many whole rows as fit in 4 KB) when a prediction first reads a row of it. The first tool-routed request
 * reads a few hundred pages instead of 13 MB; on a machine where first touching memory is dear (a VM faulting
 * its pages in from the host, ~30 us a page on the build machine) that was most of the first request. Each page
 * is its own small array: one 13 MB array, even untouched, made V8 start a full collection at once (it counts
 * such memory against the heap's limits), in the first request. Predictions are exactly those of the whole file.
 * The file stays open until every page is in (a file replaced meanwhile is still read as it was opened). On a
 * big-endian machine it reads the whole file and decodes it as `decodePackedModel` does.
 */
export function openPackedModel(path: string): PackedMultilabelModel {
  const descriptor = openSync(path, 'r');
  let keepOpen = false;
  try {
    const fileSize = fstatSync(descriptor).size;
    if (!littleEndian) return decodePackedModel(readExactly(descriptor, new Uint8Array(fileSize), 0, fileSize, 0));
    const head = readExactly(descriptor, new Uint8Array(Math.min(fileSize, headerLimit)), 0, Math.min(fileSize, headerLimit), 0);
    const { model, rowCount, offset } = readHeader(head);
    const width = model.labels.length;
    if (fileSize !== offset + rowCount * 4 + rowCount * width * 2) throw new Error('packed model: file length does not match its header');
    const buckets = new Int32Array(rowCount);
    readExactly(descriptor, new Uint8Array(buckets.buffer), 0, rowCount * 4, offset);
    const weightsStart = offset + rowCount * 4;
    const rowsPerPage = Math.max(1, Math.floor(pageBytes / Math.max(1, width * 2)));
    const pages: (Int16Array | undefined)[] = new Array(Math.ceil(rowCount / rowsPerPage));
    let pagesLeft = pages.length;
    const page = (row: number): Int16Array => {
      const index = (row / rowsPerPage) | 0;
      const held = pages[index];
      if (held !== undefined) return held;
      const rows = Math.min(rowsPerPage, rowCount - index * rowsPerPage);
      const weights = new Int16Array(rows * width);
      readExactly(descriptor, new Uint8Array(weights.buffer), 0, weights.byteLength, weightsStart + index * rowsPerPage * width * 2);
      pages[index] = weights;
      pagesLeft -= 1;
      if (pagesLeft === 0) closeSync(descriptor);
      return weights;
    };
    keepOpen = pagesLeft > 0;
    return { ...model, buckets, pages: { rowsPerPage, page } };
  } finally {
    if (!keepOpen) closeSync(descriptor);
  }
}

/** Reads `length` bytes at file `position` into `target` at `offset`; a file shorter than that is an error. */
function readExactly(descriptor: number, target: Uint8Array, offset: number, length: number, position: number): Uint8Array {
  let done = 0;
  while (done < length) {
    const read = readSync(descriptor, target, offset + done, length - done, position + done);
    if (read === 0) throw new Error('packed model: the file ended early (changed while it was read?)');
    done += read;
  }
  return target;
}
