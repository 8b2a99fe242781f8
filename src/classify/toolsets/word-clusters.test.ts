import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './model-file.js';
import { toolsetFeatureNames } from './toolset-features.js';
import { decodeWordClusters, encodeWordClusters } from './word-clusters-file.js';
import { WordClusters, loadWordClusters, wordClustersRelativePath } from './word-clusters.js';

describe('word clusters (shipped table)', () => {
  const clusters = loadWordClusters();

  it('puts words of similar meaning in one fine cluster and knows tens of thousands of words', () => {
    expect(clusters).not.toBeNull();
    expect(clusters!.size).toBeGreaterThan(30_000);
    const picture = clusters!.clustersOf('picture');
    expect(picture).toBeDefined();
    expect(clusters!.clustersOf('photo')?.[0]).toBe(picture![0]);
    expect(clusters!.clustersOf('image')?.[0]).toBe(picture![0]);
    expect(clusters!.clustersOf('thermodynamics')?.[0]).not.toBe(picture![0]);
    expect(clusters!.clustersOf('zzqxv')).toBeUndefined();
  });

  it('adds cluster features under the word frame, so a negated word stays apart', () => {
    const plain = toolsetFeatureNames('draw a picture', false, undefined, clusters);
    const negated = toolsetFeatureNames("don't draw a picture", false, undefined, clusters);
    const fine = clusters!.clustersOf('picture')![0];
    expect(plain).toContain(`k:${fine}`);
    expect(negated).toContain(`k:n~${fine}`);
    expect(negated).not.toContain(`k:${fine}`);
    expect(toolsetFeatureNames('draw a picture', false, undefined, null).some((name) => name.startsWith('k:'))).toBe(false);
  });
});

describe('word-cluster file', () => {
  const words = ['picture', 'photo', 'image', "don't", 'e-mail', 'thermodynamics'];
  const table = { words, fine: Uint16Array.from([7, 7, 7, 1, 2, 3]), coarse: Uint16Array.from([70, 70, 71, 10, 20, 30]), about: { source: 'test', fineClusters: 8, coarseClusters: 72 } };

  it('finds every word it was written with, and no other, also from bytes that sit unaligned in a larger buffer', () => {
    const bytes = encodeWordClusters(table);
    const unaligned = new Uint8Array(bytes.length + 1);
    unaligned.set(bytes, 1);
    for (const clusters of [new WordClusters(bytes), new WordClusters(unaligned.subarray(1))]) {
      expect(clusters.size).toBe(words.length);
      words.forEach((word, index) => expect(clusters.clustersOf(word)).toEqual([table.fine[index], table.coarse[index]]));
      for (const other of ['', 'pictures', 'pictur', 'Picture', 'phot', 'picturé', '图片', 'email']) expect(clusters.clustersOf(other)).toBeUndefined();
    }
  });

  it('is the bytes the distiller writes: the shipped file re-encodes to itself', () => {
    const shipped = readFileSync(join(packageRoot(), wordClustersRelativePath));
    const { about, wordCount, starts, fine, coarse, text } = decodeWordClusters(shipped);
    const shippedWords = Array.from({ length: wordCount }, (_, index) => Buffer.from(text.subarray(starts[index]!, starts[index + 1]!)).toString('latin1'));
    expect(Buffer.compare(encodeWordClusters({ words: shippedWords, fine, coarse, about }), shipped)).toBe(0);
  });

  it('refuses a truncated file and a word that is not printable ASCII', () => {
    const bytes = encodeWordClusters(table);
    expect(() => new WordClusters(bytes.subarray(0, bytes.length - 1))).toThrow(/length/);
    expect(() => encodeWordClusters({ ...table, words: ['picture', 'photo', 'image', "don't", 'e-mail', 'café'] })).toThrow(/ASCII/);
  });
});
