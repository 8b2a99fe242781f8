import { describe, expect, it } from 'vitest';
import type { TopicWeightsJson } from './model.js';
import { decodeTopicWeights, encodeTopicWeights, packTopicWeights, unpackTopicWeights } from './packed-weights.js';
import { LearnedTopicModel } from './learned-classifier.js';
import { topics } from './taxonomy.js';

const weights: TopicWeightsJson = {
  topic: {
    classes: [...topics],
    bias: topics.map((_, index) => (index === topics.length - 1 ? 0.5 : -0.1 * index)),
    weights: {
      'w:docker': topics.map((topic) => (topic === 'software_it' ? 2.5 : -0.3)),
      'w:équation': topics.map((topic) => (topic === 'math' ? 1.75 : -0.2)),
      'tg:방법': topics.map((_, index) => 0.01 * index),
    },
    temperature: 0.8,
  },
  intent: { classes: ['technical', 'analytical', 'creative', 'conversational'], bias: [0, 0, 0, 0.2], weights: { 'w:docker': [1.5, 0, -0.5, -1], 'w:only-intent': [0, 0.4, 0, -0.4] }, temperature: 0.9 },
  intentTopicTable: [topics.map(() => 1 / topics.length), topics.map(() => 1 / topics.length), topics.map(() => 1 / topics.length), topics.map(() => 1 / topics.length)],
  intentWeight: 0.5,
  minConfidence: 0.03,
  trainedOn: { files: ['a.jsonl'], examples: 3 },
};

describe('packed topic weights', () => {
  const bytes = encodeTopicWeights(weights);

  it('decodes to the same rows, names (outside ASCII too) and settings', () => {
    const decoded = decodeTopicWeights(bytes);
    const packed = packTopicWeights(weights);
    expect(decoded.heads.names).toEqual(['w:docker', 'w:équation', 'tg:방법', 'w:only-intent']);
    expect(Array.from(decoded.heads.table)).toEqual(Array.from(packed.heads.table));
    expect(Array.from(decoded.heads.scales)).toEqual(Array.from(packed.heads.scales));
    expect({ ...decoded, heads: undefined }).toEqual({ ...packed, heads: undefined });
  });

  it('reads a file cut from any byte offset, and rejects one cut short', () => {
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expect(Array.from(decodeTopicWeights(shifted.subarray(3)).heads.scales)).toEqual(Array.from(decodeTopicWeights(bytes).heads.scales));
    expect(() => decodeTopicWeights(bytes.subarray(0, bytes.length - 1))).toThrow(/length/);
  });

  it('encodes the same bytes again from its JSON form, and scores as the JSON weights do', () => {
    expect(Buffer.from(encodeTopicWeights(unpackTopicWeights(decodeTopicWeights(bytes)))).equals(Buffer.from(bytes))).toBe(true);
    const turns = ['docker équation 방법'];
    expect(new LearnedTopicModel(decodeTopicWeights(bytes)).score(turns)).toEqual(new LearnedTopicModel(weights).score(turns));
  });
});
