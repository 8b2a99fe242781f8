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

export function decodePackedModel(file: Uint8Array): PackedMultilabelModel {
  const newline = file.indexOf(0x0a);
  if (newline < 0) throw new Error('packed model: no header line');
  const header = JSON.parse(Buffer.from(file.buffer, file.byteOffset, newline).toString('utf8')) as PackedHeader;
  if (header.packed !== magic) throw new Error(`packed model: unknown format ${String(header.packed)}`);
  let offset = newline + 1;
  while (offset % 4 !== 0) offset += 1;
  const { packed: _packed, rowCount, ...model } = header;
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
