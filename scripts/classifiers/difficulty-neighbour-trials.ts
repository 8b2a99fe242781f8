/**
 * Experiment helper (not part of training): 5-fold CV of extra tree-correction inputs over the cache written by
 * difficulty-stack-cache.ts, next to the shipped inputs (linear outputs, structure, option measures, subject
 * prior) and the shipped boosting options, as the mean of three tree seeds.
 *   `neighbours`: the outcomes of the training prompts nearest by IDF-weighted word cosine (near-duplicates and
 *                 questions on the same passage), with their similarity, so the trees can trust them only when close;
 *   `rarity`:     how rare the prompt's words are (outside the word-vector table, SIF weights) and how many o200k
 *                 tokens its words split into (a proxy for terms a smaller model has seen less often).
 *   STACK_CACHE=/tmp/difficulty-stack.json npx tsx scripts/classifiers/difficulty-neighbour-trials.ts base neighbours rarity neighbours+rarity
 */
import { readFileSync } from 'node:fs';
import { correctionInputNames, correctionInputs, linearGain } from '../../src/classify/difficulty/correction-inputs.js';
import { difficultyFeatures } from '../../src/classify/difficulty/features.js';
import { SubjectPrior, leaveOneOutSubjectPriorInputs, meaningDirection, trainSubjectPrior } from '../../src/classify/difficulty/subject-prior.js';
import { wordVectorTable } from '../../src/classify/features/word-vectors.js';
import { countTokens } from '../../src/classify/text/o200k.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import { caseQualities, caseSubject, readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { type StackCache, benchmarkReport, fitFoldCorrection, idfVectors, printSeedMeans } from './difficulty-trial-support.js';

const path = '../shared/corpora/external/routellm_strong_weak.jsonl';
const folds = 5;
const cases = readDifficultyCases(path).filter((row) => caseQualities(row));
const qualities = cases.map((row) => caseQualities(row)!);
const gains = qualities.map((quality) => quality.strong - quality.weak);
const cache = JSON.parse(readFileSync(process.env.STACK_CACHE ?? '/tmp/difficulty-stack.json', 'utf8')) as StackCache;
const directions = cases.map((row) => meaningDirection(difficultyFeatures(row.prompt)));
const fixedInputs = cases.map((row) => correctionInputs(row.prompt, [0, 0, 0, 0], [0, 0, 0]).slice(5, -3));
const words = cases.map((row) => tokenize(row.prompt).words);

// Rarity measures (no labels involved).
const table = wordVectorTable();
const rarity = cases.map((row, index) => {
  const content = words[index]!.filter((word) => /^\p{L}{3,}$/u.test(word));
  const unknown = content.filter((word) => !table.rows.has(word)).length;
  const weights = content.map((word) => table.rows.get(word)?.weight ?? 1).sort((a, b) => b - a);
  const rare = weights.filter((weight) => weight >= 0.97).length;
  const pieces = content.map((word) => countTokens(` ${word}`));
  const split = pieces.filter((count) => count >= 3).length;
  const tokens = countTokens(row.prompt);
  return [unknown, unknown / Math.max(1, content.length), rare / Math.max(1, content.length), (weights[2] ?? 0), Math.max(0, ...pieces), split, tokens / Math.max(1, words[index]!.length)];
});
const rarityNames = ['rarity:unknown', 'rarity:unknown-share', 'rarity:rare-share', 'rarity:third-rarest', 'rarity:most-pieces', 'rarity:split-words', 'rarity:tokens-per-word'];

// Neighbour evidence, per outer fold: training rows only, never the row itself.
const neighbourNames = ['near:similarity', 'near:gain', 'near:weak', 'near:close-gain', 'near:close-weight'];
function neighbourInputs(fold: number): number[][] {
  const training = cases.flatMap((_, index) => (index % folds === fold ? [] : [index]));
  const { documentFrequency, vectorOf } = idfVectors(words, training);
  const vectors = cases.map((_, index) => vectorOf(index));
  // Inverted index over the training rows' less common words (a near neighbour shares some of them).
  const postings = new Map<string, number[]>();
  for (const index of training) for (const word of vectors[index]!.keys()) if ((documentFrequency.get(word) ?? 0) <= 300) (postings.get(word) ?? postings.set(word, []).get(word)!).push(index);
  return cases.map((_, index) => {
    const candidates = new Set<number>();
    for (const word of vectors[index]!.keys()) for (const other of postings.get(word) ?? []) if (other !== index) candidates.add(other);
    let best = -1;
    let bestSimilarity = 0;
    let closeGain = 0;
    let closeWeight = 0;
    for (const other of candidates) {
      let similarity = 0;
      const mine = vectors[index]!;
      for (const [word, value] of vectors[other]!) similarity += value * (mine.get(word) ?? 0);
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = other;
      }
      if (similarity >= 0.4) {
        const weight = similarity ** 4;
        closeGain += weight * gains[other]!;
        closeWeight += weight;
      }
    }
    return [bestSimilarity, best >= 0 ? gains[best]! : 0, best >= 0 ? qualities[best]!.weak : 0, closeWeight > 0 ? closeGain / closeWeight : 0, closeWeight];
  });
}

function report(scores: number[]): Record<string, number> {
  return benchmarkReport(cases, scores, qualities);
}

const neighbourCache: number[][][] = [];
function crossValidate(set: string, seed: number): number[] {
  const scores = new Array<number>(cases.length).fill(0);
  for (let fold = 0; fold < folds; fold += 1) {
    const trainIndices = cases.flatMap((_, index) => (index % folds === fold ? [] : [index]));
    const priorRows = trainIndices.map((index) => ({ subject: caseSubject(cases[index]!), direction: directions[index]!, quality: qualities[index]! }));
    const prior = new SubjectPrior(trainSubjectPrior(priorRows));
    const trainingPrior = leaveOneOutSubjectPriorInputs(priorRows);
    const near = set.includes('neighbours') ? (neighbourCache[fold] ??= neighbourInputs(fold)) : [];
    const extra = (index: number): number[] => [...(set.includes('neighbours') ? near[index]! : []), ...(set.includes('rarity') ? rarity[index]! : [])];
    const names = [...correctionInputNames, ...(set.includes('neighbours') ? neighbourNames : []), ...(set.includes('rarity') ? rarityNames : [])];
    const inputs = (index: number, probabilities: number[], priorInputs: number[]) => [...probabilities.slice(0, 4), linearGain(probabilities), ...fixedInputs[index]!, ...priorInputs, ...extra(index)];
    const { model, scale } = fitFoldCorrection({ cache, fold, trainIndices, gains, names, seed, inputs: (index, probabilities, position) => inputs(index, probabilities, trainingPrior[position]!) });
    cases.forEach((_, index) => {
      if (index % folds !== fold) return;
      const probabilities = cache.outer[index]!;
      scores[index] = model.predict(inputs(index, probabilities, prior.inputs(directions[index]!))) + scale * linearGain(probabilities);
    });
  }
  return scores;
}

printSeedMeans(process.argv.slice(2), crossValidate, report);
