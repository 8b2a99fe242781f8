import { describe, expect, it } from 'vitest';
import { loadWordClusters } from './word-clusters.js';
import { decodeWordVectors, encodeWordVectors } from './word-vectors-file.js';
import { loadWordVectors } from './word-vectors.js';

function cosine(left: Float32Array, right: Float32Array): number {
  return left.reduce((sum, value, index) => sum + value * right[index]!, 0);
}

describe('word vectors (shipped table)', () => {
  const clusters = loadWordClusters()!;
  const vectors = loadWordVectors()!;

  it('holds one vector for every word of the cluster table', () => {
    expect(vectors).not.toBeNull();
    expect(vectors.size).toBe(clusters.size);
    expect(vectors.dimensions).toBe(100);
  });

  it('puts words of one meaning close and unrelated words apart, as unit vectors', () => {
    const meaning = (word: string) => vectors.meaningOf([word], clusters)!;
    expect(cosine(meaning('psychologist'), meaning('psychologist'))).toBeCloseTo(1, 5);
    expect(cosine(meaning('psychologist'), meaning('therapist'))).toBeGreaterThan(cosine(meaning('psychologist'), meaning('weather')) + 0.3);
    expect(cosine(meaning('music'), meaning('song'))).toBeGreaterThan(0.6);
  });

  it('has no meaning for words it does not know', () => {
    expect(vectors.meaningOf(['zzqxv', 'qqqq'], clusters)).toBeUndefined();
    expect(vectors.meaningOf([], clusters)).toBeUndefined();
  });
});

describe('word-vector file', () => {
  it('reads back what it wrote, also from bytes that sit unaligned in a larger buffer', () => {
    const components = Int8Array.from([127, 0, -127, 64, -64, 1]);
    const bytes = encodeWordVectors({ dimensions: 3, components, about: { source: 'test' } });
    const unaligned = new Uint8Array(bytes.length + 1);
    unaligned.set(bytes, 1);
    for (const file of [bytes, unaligned.subarray(1)]) {
      const table = decodeWordVectors(file);
      expect(table.wordCount).toBe(2);
      expect(table.dimensions).toBe(3);
      expect([...table.components]).toEqual([...components]);
      expect(table.about.source).toBe('test');
    }
  });

  it('refuses a file whose length does not match its header, and components that are not whole vectors', () => {
    const bytes = encodeWordVectors({ dimensions: 2, components: Int8Array.from([1, 2, 3, 4]), about: { source: 'test' } });
    expect(() => decodeWordVectors(bytes.subarray(0, bytes.length - 1))).toThrow(/length/);
    expect(() => encodeWordVectors({ dimensions: 3, components: Int8Array.from([1, 2, 3, 4]), about: { source: 'test' } })).toThrow(/whole vectors/);
  });
});
