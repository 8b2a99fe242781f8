import { readFileSync } from 'node:fs';
import type { PackedStackedModels } from '../text/stacked-linear-models.js';
import { packStackedModels, rowWidth } from '../text/stacked-linear-models.js';
import type { TopicWeightsJson } from './model.js';

/**
 * The shipped topic model file (data/topics/weights.bin): a JSON header line (both heads' classes, biases and
 * temperatures, the intent table, intent weight, threshold, what it was trained on, the row count and the byte
 * length of the names), spaces up to a multiple of four bytes; the feature names in row order, UTF-8, joined by
 * newlines, spaces up to a multiple of four; the row steps as little-endian Float32 (two per row: subject head, intent
 * head); then one signed byte per weight, row-major (`packStackedModels`). Loading it reads one file and splits one
 * string: no JSON parse of 180,000 arrays (24.8 MB of JSON, most of the topic classifier's start-up). The same
 * weights give the same bytes.
 */
const magic = 'topic-heads-int8/1';

export interface PackedTopicWeights extends Omit<TopicWeightsJson, 'topic' | 'intent'> {
  heads: PackedStackedModels;
}

interface Header extends Omit<TopicWeightsJson, 'topic' | 'intent'> {
  packed: typeof magic;
  models: PackedStackedModels['models'];
  rowCount: number;
  namesBytes: number;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function packTopicWeights(weights: TopicWeightsJson): PackedTopicWeights {
  const { topic, intent, ...rest } = weights;
  return { ...rest, heads: packStackedModels([topic, intent]) };
}

export function encodeTopicWeights(weights: TopicWeightsJson | PackedTopicWeights): Uint8Array {
  const { heads, ...rest } = 'heads' in weights ? weights : packTopicWeights(weights);
  if (heads.names.some((name) => name.includes('\n'))) throw new Error('packed topic weights: a feature name holds a newline');
  const names = Buffer.from(heads.names.join('\n'), 'utf8');
  const header: Header = { packed: magic, ...rest, models: heads.models, rowCount: heads.names.length, namesBytes: names.length };
  const headerBytes = padded(Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'));
  const scales = Buffer.alloc(heads.scales.length * 4);
  heads.scales.forEach((scale, index) => scales.writeFloatLE(scale, index * 4));
  return new Uint8Array(Buffer.concat([headerBytes, padded(names), scales, Buffer.from(heads.table.buffer, heads.table.byteOffset, heads.table.byteLength)]));
}

export function decodeTopicWeights(file: Uint8Array): PackedTopicWeights {
  const newline = file.indexOf(0x0a);
  if (newline < 0) throw new Error('packed topic weights: no header line');
  const header = JSON.parse(Buffer.from(file.buffer, file.byteOffset, newline).toString('utf8')) as Header;
  if (header.packed !== magic) throw new Error(`packed topic weights: unknown format ${String(header.packed)}`);
  const { packed: _packed, models, rowCount, namesBytes, ...rest } = header;
  const width = rowWidth(models);
  const namesStart = align(newline + 1);
  const scalesStart = align(namesStart + namesBytes);
  const tableStart = scalesStart + rowCount * models.length * 4;
  if (file.length !== tableStart + rowCount * width) throw new Error('packed topic weights: file length does not match its header');
  // Each name decoded on its own: split() of the whole text would give slices of one string that, with a single
  // letter outside Latin-1 in it, is held at two bytes a character (~5 MB more heap than the names need).
  const namesText = Buffer.from(file.buffer, file.byteOffset + namesStart, namesBytes);
  const names: string[] = [];
  for (let start = 0; rowCount > 0; ) {
    const end = namesText.indexOf(0x0a, start);
    names.push(namesText.toString('utf8', start, end < 0 ? namesText.length : end));
    if (end < 0) break;
    start = end + 1;
  }
  if (names.length !== rowCount) throw new Error('packed topic weights: name count does not match its header');
  const scales = new Float32Array(rowCount * models.length);
  if (littleEndian && (file.byteOffset + scalesStart) % 4 === 0) scales.set(new Float32Array(file.buffer, file.byteOffset + scalesStart, scales.length));
  else {
    const view = new DataView(file.buffer, file.byteOffset + scalesStart);
    for (let index = 0; index < scales.length; index += 1) scales[index] = view.getFloat32(index * 4, true);
  }
  // Copies: the model keeps only its own arrays, not the file's buffer.
  const table = Int8Array.from(new Int8Array(file.buffer, file.byteOffset + tableStart, rowCount * width));
  return { ...rest, heads: { models, names, scales, table } };
}

/** The packed weights back as JSON (each weight its step × byte): for scripts that read a head's fields; packing it again gives the same table. */
export function unpackTopicWeights(packed: PackedTopicWeights): TopicWeightsJson {
  const { heads, ...rest } = packed;
  const width = rowWidth(heads.models);
  let offset = 0;
  const [topic, intent] = heads.models.map((model, modelIndex) => {
    const weights: Record<string, number[]> = {};
    heads.names.forEach((name, row) => {
      const step = heads.scales[row * heads.models.length + modelIndex]!;
      if (step === 0) return;
      weights[name] = model.classes.map((_, classIndex) => step * heads.table[row * width + offset + classIndex]!);
    });
    offset += model.classes.length;
    return { classes: model.classes, bias: model.bias, temperature: model.temperature, weights };
  });
  return { ...rest, topic: topic!, intent: intent! };
}

/** A topic weights file either way: packed (`.bin`, as shipped) or JSON (older models, trials). */
export function readTopicWeightsFile(path: string): TopicWeightsJson | PackedTopicWeights {
  return path.endsWith('.json') ? (JSON.parse(readFileSync(path, 'utf8')) as TopicWeightsJson) : decodeTopicWeights(readFileSync(path));
}

function align(offset: number): number {
  return offset + ((4 - (offset % 4)) % 4);
}

function padded(bytes: Buffer): Buffer {
  return Buffer.concat([bytes, Buffer.alloc(align(bytes.length) - bytes.length, 0x20)]);
}
