import { describe, expect, it } from 'vitest';
import { toolsetFeatureNames } from './toolset-features.js';
import { loadWordClusters } from './word-clusters.js';

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
