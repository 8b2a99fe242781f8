import { describe, expect, it } from 'vitest';
import { fnv1a } from '../features/hash.js';
import { hashFeatures } from '../features/text-features.js';
import { toolsetFeatureNames, toolsetFeatures } from './toolset-features.js';
import { loadWordClusters } from './word-clusters.js';

// Frames, quotes, unspaced scripts, URLs, numbers, apostrophes and repeated words in different frames: each token kind
// the remembered per-token buckets must keep apart.
const texts = [
  'run the tests and fix what fails in src/app.ts',
  "don't run the tests, just run the linter",
  "the ticket says 'restart the worker'; don't do it, just open https://example.org/status",
  '每天早上提醒我喝水，不要运行测试',
  '把 report.xlsx 里的数字画成图，然后 email it to 3 people',
  "rock'n'roll playlist for the 'Aufwach'-Playlist at 7am?",
  'screenshots screenshot screenshotting',
  '',
  'picture picture picture',
];

describe('toolsetFeatures', () => {
  for (const [name, clusters] of [['with word clusters', loadWordClusters()], ['without word clusters', null]] as const) {
    it(`gives exactly the hashed feature names, ${name}, on first sight and from what it remembers`, () => {
      for (const bits of [20, 12]) {
        for (const round of [1, 2]) {
          for (const text of texts) {
            const expected = hashFeatures(toolsetFeatureNames(text, round === 2, undefined, clusters), bits);
            const actual = toolsetFeatures(text, round === 2, bits, undefined, clusters);
            expect([...actual.indices], `${text} (${bits} bits)`).toEqual([...expected.indices]);
            expect([...actual.values]).toEqual([...expected.values]);
          }
        }
      }
    });
  }

  it('stays exact after the cache of token buckets has filled and started over', () => {
    // 25,000 distinct words, more than the cache holds, then texts whose words were remembered before the clear.
    const words = Array.from({ length: 25_000 }, (_, index) => `token${index.toString(36)}x`);
    for (let start = 0; start < words.length; start += 50) toolsetFeatures(words.slice(start, start + 50).join(' '), false, 20, undefined, null);
    for (const text of [words.slice(0, 8).join(' '), words.slice(24_990).join(' '), ...texts]) {
      expect([...toolsetFeatures(text, false, 20, undefined, null).indices]).toEqual([...hashFeatures(toolsetFeatureNames(text, false, undefined, null), 20).indices]);
    }
  });

  it('keeps a word asked for apart from the same word negated, though the plain one was remembered first', () => {
    const bucket = (name: string): number => fnv1a(name) & ((1 << 20) - 1);
    expect([...toolsetFeatures('open the linter', false, 20, undefined, null).indices]).toContain(bucket('w:linter'));
    const negated = [...toolsetFeatures("open it, don't touch the linter", false, 20, undefined, null).indices];
    expect(negated).toContain(bucket('w:n~linter'));
    expect(negated).not.toContain(bucket('w:linter'));
  });
});
