import { describe, expect, it } from 'vitest';
import type { RankedToolDocument } from './tool-ranker.js';
import { buildToolIndex, defaultRankingPolicy, rankTools, rankingTerms } from './tool-ranker.js';
import { loadWordClusters } from './word-clusters.js';
import { loadWordVectors } from './word-vectors.js';

const documents: RankedToolDocument[] = [
  { name: 'get_weather', description: 'Weather forecast for a city, today or tomorrow.', parameters: 'city' },
  { name: 'convert_currency', description: 'Convert an amount between currencies at the latest exchange rate.', parameters: 'amount from to' },
  { name: 'find_route', description: 'Driving directions between two places.', parameters: 'origin destination mode' },
  { name: 'book_table', description: 'Reserve a restaurant table in a city.', parameters: 'restaurant city time' },
];

/** BM25 written out from its definition, field weights as the ranker's (name 3, description 1, parameters 0.5). */
function referenceScores(message: string): number[] {
  const fieldWeights: [keyof RankedToolDocument, number][] = [['name', 3], ['description', 1], ['parameters', 0.5]];
  const frequencies = documents.map((document) => {
    const counts = new Map<string, number>();
    for (const [field, weight] of fieldWeights) for (const { term } of rankingTerms(document[field], null)) counts.set(term, (counts.get(term) ?? 0) + weight);
    return counts;
  });
  const lengths = frequencies.map((counts) => [...counts.values()].reduce((sum, value) => sum + value, 0));
  const average = lengths.reduce((sum, value) => sum + value, 0) / lengths.length;
  const terms = [...new Set(rankingTerms(message, null).map(({ term }) => term))];
  return documents.map((_, index) =>
    terms.reduce((score, term) => {
      const holding = frequencies.filter((counts) => counts.has(term)).length;
      const frequency = frequencies[index]!.get(term) ?? 0;
      if (holding === 0 || frequency === 0) return score;
      const idf = Math.log(1 + (documents.length - holding + 0.5) / (holding + 0.5));
      return score + (idf * frequency * 2.2) / (frequency + 1.2 * (0.25 + (0.75 * lengths[index]!) / average));
    }, 0),
  );
}

describe('rankTools', () => {
  const index = buildToolIndex(documents, null);

  it('scores each tool by BM25 over its name, description and parameter names', () => {
    const message = 'what is the weather in the city tomorrow, and the exchange rate for my amount';
    const { scores } = rankTools(index, message, null);
    const expected = referenceScores(message);
    scores.forEach((score, position) => expect(score).toBeCloseTo(expected[position]!, 10));
    expect(expected.filter((score) => score > 0).length).toBeGreaterThan(1);
  });

  it('keeps the best tools first and never one the message does not touch', () => {
    const policy = { relativeCut: 0.2, maximumKept: 24, minimumKept: 5, minimumTopScore: 0.1, semanticWeight: 0, semanticFloor: 0.6 };
    const ranking = rankTools(index, 'weather forecast for the city', null, policy);
    expect(ranking.unsure).toBe(false);
    expect(ranking.kept[0]).toBe(0);
    // "city" also names the restaurant tool's parameter; the currency and route tools share no word with the message.
    expect(ranking.kept).toEqual([0, 3]);
    expect(ranking.scores[1]).toBe(0);
    expect(ranking.scores[2]).toBe(0);
  });

  it('cuts below a share of the best score once the first few are kept', () => {
    const policy = { relativeCut: 0.9, maximumKept: 24, minimumKept: 1, minimumTopScore: 0.1, semanticWeight: 0, semanticFloor: 0.6 };
    const ranking = rankTools(index, 'weather forecast for the city', null, policy);
    expect(ranking.kept).toEqual([0]);
  });

  it('is unsure when nothing in the message points at a tool', () => {
    const ranking = rankTools(index, 'hello there, how are you', null);
    expect(ranking.unsure).toBe(true);
    expect(ranking.kept).toEqual([]);
  });

  it('keeps exactly what the policy says, ties by position, whatever the cut, minimum and maximum', () => {
    // The policy written out plainly: every tool ordered by score (ties by position), those at or above the cut or
    // among the first `minimumKept` that scored, at most `maximumKept`.
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = (count: number): string => Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join(' ');
    for (let trial = 0; trial < 200; trial += 1) {
      const tools: RankedToolDocument[] = Array.from({ length: 3 + Math.floor(random() * 12) }, (_, position) => ({ name: `tool_${position}`, description: pick(2), parameters: '' }));
      const policy = { relativeCut: [0, 0.2, 0.5, 1][trial % 4]!, maximumKept: 1 + Math.floor(random() * 6), minimumKept: Math.floor(random() * 4), minimumTopScore: 0, semanticWeight: 0, semanticFloor: 0.6 };
      const ranking = rankTools(buildToolIndex(tools, null), pick(2), null, policy);
      const top = Math.max(...ranking.scores);
      const order = ranking.scores.map((_, position) => position).sort((left, right) => ranking.scores[right]! - ranking.scores[left]! || left - right);
      const expected = order.filter((position, rank) => ranking.scores[position]! >= top * policy.relativeCut || (rank < policy.minimumKept && ranking.scores[position]! > 0)).slice(0, policy.maximumKept);
      expect(ranking.kept).toEqual(expected);
    }
  });
});

describe('rankTools with word vectors', () => {
  const clusters = loadWordClusters();
  const vectors = loadWordVectors();
  const tools: RankedToolDocument[] = [
    ...documents,
    { name: 'play_song', description: 'Plays the specified song.', parameters: 'query' },
    { name: 'sort_array', description: 'Sorts an array of integers in ascending order.', parameters: 'array' },
  ];
  // Every tool ranked, so the test reads the order rather than the bar for "nothing points at a tool".
  const policy = { ...defaultRankingPolicy, minimumTopScore: 0 };
  const message = 'I would like to listen to some music by a French DJ';

  it('finds a tool that shares no word with the message by what the words mean', () => {
    const ranking = rankTools(buildToolIndex(tools, clusters, vectors), message, clusters, policy);
    expect(tools[ranking.kept[0]!]!.name).toBe('play_song');
  });

  it('does not without them, and not with the weight at 0', () => {
    const words = rankTools(buildToolIndex(tools, clusters, null), message, clusters, policy);
    const off = rankTools(buildToolIndex(tools, clusters, vectors), message, clusters, { ...policy, semanticWeight: 0 });
    for (const ranking of [words, off]) expect(ranking.kept.map((position) => tools[position]!.name)).not.toContain('play_song');
  });
});

