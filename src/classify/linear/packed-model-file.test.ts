import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashFeatures, textFeatureNames } from '../features/text-features.js';
import type { MultilabelModelJson } from './multilabel-model.js';
import { MultilabelModel } from './multilabel-model.js';
import { decodePackedModel, encodePackedModel, openPackedModel } from './packed-model-file.js';
import { packageRoot, toolsetModelRelativePath } from '../toolsets/model-file.js';

const json: MultilabelModelJson = {
  format: 'hashed-ovr-logistic/1',
  featureBits: 12,
  labels: ['terminal', 'web', 'file'],
  bias: [0.125, -0.5, 0.003],
  rows: { '7': [120, -33, 0], '300': [-1033, 1185, 7], '4095': [1, 2, -3] },
  weightScale: 100,
  temperatures: [1, 0.9, 1.1],
  trainedOn: { examples: 3, seed: 7, dataHash: 'test' },
};

describe('packed model file', () => {
  it('decodes to a model that predicts exactly as the JSON one', () => {
    const bytes = encodePackedModel(json);
    // Offset by one byte in a larger buffer, as a file read into Node's pool may be.
    const unaligned = new Uint8Array(bytes.length + 1);
    unaligned.set(bytes, 1);
    const packed = new MultilabelModel(decodePackedModel(unaligned.subarray(1)));
    const plain = new MultilabelModel(json);
    for (const text of ['run the tests', 'search the web', 'read the file', 'hello']) {
      const features = hashFeatures(textFeatureNames(text), 12);
      features.indices.set(features.indices.map((index, position) => (position % 2 === 0 ? [7, 300, 4095][position % 3]! : index)));
      expect(Array.from(packed.predict(features))).toEqual(Array.from(plain.predict(features)));
    }
    expect(packed.labels).toEqual(json.labels);
  });

  it('is byte for byte the same for the same model, and refuses a truncated file or a weight that is no Int16', () => {
    const bytes = encodePackedModel(json);
    expect(Buffer.compare(bytes, encodePackedModel(structuredClone(json)))).toBe(0);
    expect(() => decodePackedModel(bytes.subarray(0, bytes.length - 2))).toThrow(/length/);
    expect(() => encodePackedModel({ ...json, rows: { '1': [40_000, 0, 0] } })).toThrow(/Int16/);
    // Rows are found by binary search: a bucket key that does not sort as its number is refused.
    expect(() => encodePackedModel({ ...json, rows: { '7': [1, 1, 1], '07': [2, 2, 2] } })).toThrow(/ascending/);
  });
});

describe('a packed model opened from its file (weights read as rows are first used)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'packed-model-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** A model of `rowCount` rows over 3 labels, its weights spanning many 4 KB pages. */
  function largeModel(rowCount: number): MultilabelModelJson {
    const rows: Record<string, number[]> = {};
    for (let row = 0; row < rowCount; row += 1) rows[String(row * 3 + 1)] = [(row * 7919) % 2001 - 1000, (row * 104729) % 3001 - 1500, row % 17];
    return { ...json, featureBits: 16, rows };
  }

  it('predicts exactly as the whole file decoded, for a model of one page and one of many', () => {
    for (const [name, model] of [['small', json], ['large', largeModel(6000)]] as const) {
      const path = join(directory, `${name}.bin`);
      writeFileSync(path, encodePackedModel(model));
      const opened = new MultilabelModel(openPackedModel(path));
      const whole = new MultilabelModel(decodePackedModel(readFileSync(path)));
      for (const text of ['run the tests', 'search the web', 'read the file', 'hello', 'a b c d e f g h i j k l m n o p']) {
        const features = hashFeatures(textFeatureNames(text), model.featureBits);
        // Point some features at rows that exist, across the weights' pages.
        features.indices.set(features.indices.map((index, position) => (position % 2 === 0 ? ((position * 2477) % 6000) * 3 + 1 : index)));
        expect(Array.from(opened.predict(features))).toEqual(Array.from(whole.predict(features)));
      }
      expect(opened.labels).toEqual(model.labels);
    }
  });

  it('holds whole rows in each page, the same weights as the file, and refuses a truncated file', () => {
    const model = largeModel(3000);
    const path = join(directory, 'rows.bin');
    writeFileSync(path, encodePackedModel(model));
    const { pages } = openPackedModel(path);
    const whole = decodePackedModel(readFileSync(path));
    // Rows of 3 labels are 6 bytes: 682 rows to a 4 KB page. The rows either side of page ends, and the last row.
    expect(pages?.rowsPerPage).toBe(682);
    for (const row of [0, 681, 682, 683, 1363, 1364, 2999]) {
      const start = (row % 682) * 3;
      expect(Array.from(pages!.page(row).subarray(start, start + 3))).toEqual(Array.from(whole.weights.subarray(row * 3, row * 3 + 3)));
    }
    const truncated = join(directory, 'truncated.bin');
    writeFileSync(truncated, readFileSync(path).subarray(0, -2));
    expect(() => openPackedModel(truncated)).toThrow(/length/);
  });

  it.runIf(process.platform === 'linux')('keeps its file open only until every page is in', () => {
    const path = join(directory, 'all.bin');
    writeFileSync(path, encodePackedModel(largeModel(4000)));
    const descriptors = () => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    const { pages } = openPackedModel(path);
    expect(descriptors()).toBe(before + 1);
    const read: number[] = [];
    for (let row = 0; row < 4000; row += pages!.rowsPerPage) read.push(...pages!.page(row));
    expect(descriptors()).toBe(before);
    expect(read).toEqual(Array.from(decodePackedModel(readFileSync(path)).weights));
  });

  it('gives the shipped toolset model the predictions of the whole file', () => {
    const path = join(packageRoot(), toolsetModelRelativePath);
    const opened = new MultilabelModel(openPackedModel(path));
    const whole = new MultilabelModel(decodePackedModel(readFileSync(path)));
    for (const text of ['run the failing tests and push the fix', 'search the web for the release notes', 'what is on my calendar tomorrow', 'resize this image to 512 pixels']) {
      const features = hashFeatures(textFeatureNames(text), opened.featureBits);
      expect(Array.from(opened.predict(features))).toEqual(Array.from(whole.predict(features)));
    }
  });
});
