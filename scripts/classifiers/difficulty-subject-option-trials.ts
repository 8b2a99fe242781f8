/**
 * Experiment helper (not part of training): 5-fold CV of extra tree-correction inputs over the cache written by
 * difficulty-stack-cache.ts, next to the shipped inputs and boosting options, as the mean of tree seeds (SEEDS,
 * default 7,8,9). Every label-derived input is fitted inside the outer fold; a training row's value comes from
 * the training rows of the other inner folds (leave-fold-out), so the trees learn from inputs like those of
 * unseen prompts. SMOOTHING (rows, default 10) and TEMPERATURE (softmax, default 0.05) set the subject means'
 * shrinkage and the recognised subjects' weighting; CORRECTION_WEIGHT scales the trees' correction.
 *   `oracle`:    the TRUE subject's smoothed mean gain and weak quality, training rows leave-one-out (shows the
 *                leak of leave-one-out target means: the trees learn it and lose on unseen prompts);
 *   `oraclefold`: the same, leave-fold-out (an upper bound for subject recognition; no shipped model can have it);
 *   `priorfold`: the shipped subject prior with leave-fold-out training inputs instead of leave-one-out;
 *   `subjects`:  subject recognised from the words (TF-IDF centroid of each training subject, softmax over
 *                cosines): the recognised subject's gain and weak quality, best cosine and the margin to the second;
 *   `options`:   word-vector closeness of the answer options to each other (close distractors by meaning, not
 *                shared words) and to the stem;
 *   `arithmetic`: word-problem structure not measured before: unit pairs to convert, references to an earlier
 *                result ("the rest", "remaining"), percent or fraction of a part, comparative questions, numbers
 *                outside the first sentence.
 *   `coverage`:  how much of the prompt the linear model knows (extra entries of a cache written by
 *                difficulty-linear-variant-cache.ts coverage; the inner model's for training rows, the outer's for the fold).
 * Sets combine with `+` (`priorfold+arithmetic`).
 *   STACK_CACHE=/tmp/difficulty-stack.json npx tsx scripts/classifiers/difficulty-subject-option-trials.ts base oraclefold subjects options arithmetic
 */
import { readFileSync } from 'node:fs';
import { correctionInputNames, correctionInputs, linearGain } from '../../src/classify/difficulty/correction-inputs.js';
import { difficultyFeatures } from '../../src/classify/difficulty/features.js';
import { SubjectPrior, leaveOneOutSubjectPriorInputs, meaningDirection, trainSubjectPrior } from '../../src/classify/difficulty/subject-prior.js';
import { cosine, sentenceVector } from '../../src/classify/features/word-vectors.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import { caseQualities, caseSubject, readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { type StackCache, benchmarkReport, fitFoldCorrection, idfVectors, printSeedMeans } from './difficulty-trial-support.js';

const path = '../shared/corpora/external/routellm_strong_weak.jsonl';
const folds = 5;
const cases = readDifficultyCases(path).filter((row) => caseQualities(row));
const qualities = cases.map((row) => caseQualities(row)!);
const gains = qualities.map((quality) => quality.strong - quality.weak);
const subjects = cases.map((row) => caseSubject(row));
const cache = JSON.parse(readFileSync(process.env.STACK_CACHE ?? '/tmp/difficulty-stack.json', 'utf8')) as StackCache;
const directions = cases.map((row) => meaningDirection(difficultyFeatures(row.prompt)));
const fixedInputs = cases.map((row) => correctionInputs(row.prompt, [0, 0, 0, 0], [0, 0, 0]).slice(5, -3));
const words = cases.map((row) => tokenize(row.prompt).words);
const smoothingRows = Number(process.env.SMOOTHING ?? 10);
const temperature = Number(process.env.TEMPERATURE ?? 0.05);
/** CORRECTION_WEIGHT: how much of the trees' correction to add to the scaled linear estimate (shipped: 1). */
const correctionWeight = Number(process.env.CORRECTION_WEIGHT ?? 1);

// ---- options: word-vector closeness of options to each other and to the stem (no labels involved).
const optionLine = /^[A-D][.)]\s/;
const optionNames = ['optvec:pair-mean', 'optvec:pair-max', 'optvec:pair-min', 'optvec:stem-mean', 'optvec:stem-max', 'optvec:stem-margin', 'optvec:stem-spread', 'optvec:coverage-min'];
const optionValues = cases.map((row) => {
  const options = row.prompt.split('\n').filter((line) => optionLine.test(line)).map((line) => line.slice(3));
  if (options.length < 2) return optionNames.map(() => -1);
  const stem = row.prompt.split(/\n[A-D][.)]\s/)[0] ?? row.prompt;
  const stemVector = sentenceVector(tokenize(stem).words).vector;
  const vectors = options.map((option) => sentenceVector(tokenize(option).words));
  const pairs: number[] = [];
  for (let first = 0; first < vectors.length; first += 1) for (let second = first + 1; second < vectors.length; second += 1) pairs.push(cosine(vectors[first]!.vector, vectors[second]!.vector));
  const toStem = vectors.map((vector) => cosine(vector.vector, stemVector)).sort((a, b) => b - a);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const stemMean = mean(toStem);
  return [mean(pairs), Math.max(...pairs), Math.min(...pairs), stemMean, toStem[0]!, toStem[0]! - toStem[1]!, Math.sqrt(mean(toStem.map((value) => (value - stemMean) ** 2))), Math.min(...vectors.map((vector) => vector.coverage))];
});

// ---- arithmetic: word-problem structure (no labels involved).
const arithmeticNames = ['arith:unit-pairs', 'arith:references', 'arith:part-of-part', 'arith:comparative-question', 'arith:later-numbers', 'arith:number-sentences', 'arith:question-numbers', 'arith:distinct-units'];
const unitGroups: RegExp[] = [/\b(?:hours?|minutes?|seconds?)\b/gi, /\b(?:days?|weeks?|months?|years?)\b/gi, /\b(?:dollars?|cents?|\$)/gi, /\b(?:feet|foot|inch(?:es)?|yards?|miles?)\b/gi, /\b(?:dozens?|pairs?|packs?|boxes|crates?|cartons?)\b/gi, /\b(?:pounds?|ounces?|kg|grams?|tons?)\b/gi, /\b(?:liters?|litres?|gallons?|cups?|quarts?|ml)\b/gi];
const arithmeticValues = cases.map((row) => {
  const text = row.prompt;
  const sentences = text.split(/(?<=[.!?])\s+/).filter(Boolean);
  const last = sentences[sentences.length - 1] ?? '';
  const numbersIn = (sentence: string) => (sentence.match(/\d+(?:[.,]\d+)*|\b(?:half|twice|double|triple|third|quarter)\b/gi) ?? []).length;
  let unitPairs = 0;
  let distinctUnits = 0;
  for (const group of unitGroups) {
    const found = new Set((text.match(group) ?? []).map((unit) => unit.toLowerCase().replace(/s$/, '')));
    if (found.size >= 2) unitPairs += 1;
    distinctUnits += found.size;
  }
  return [
    unitPairs,
    (text.match(/\b(?:the rest|remaining|remainder|what is left|left over|leftover|the others?|of them|of those|of these)\b/gi) ?? []).length,
    (text.match(/(?:%|percent|half|third|quarter|fourth|fifth|\d\/\d)\s+(?:of\s+)?(?:the\s+)?(?:rest|remaining|remainder|them|those)/gi) ?? []).length,
    /\bhow (?:much|many) (?:more|less|fewer|longer|older)\b|\bwhat percent|\bdifference\b/i.test(last) ? 1 : 0,
    sentences.slice(1).reduce((sum, sentence) => sum + numbersIn(sentence), 0),
    sentences.filter((sentence) => numbersIn(sentence) > 0).length,
    numbersIn(last),
    distinctUnits,
  ];
});

// ---- subjects / oracle: per outer fold, from the training rows only.
interface SubjectTable {
  names: string[];
  gain: Map<string, { total: number; count: number }>;
  weak: Map<string, { total: number }>;
  meanGain: number;
  meanWeak: number;
}
function subjectTable(training: number[]): SubjectTable {
  const gain = new Map<string, { total: number; count: number }>();
  const weak = new Map<string, { total: number }>();
  for (const index of training) {
    const entry = gain.get(subjects[index]!) ?? { total: 0, count: 0 };
    entry.total += gains[index]!;
    entry.count += 1;
    gain.set(subjects[index]!, entry);
    const weakEntry = weak.get(subjects[index]!) ?? { total: 0 };
    weakEntry.total += qualities[index]!.weak;
    weak.set(subjects[index]!, weakEntry);
  }
  const meanGain = training.reduce((sum, index) => sum + gains[index]!, 0) / training.length;
  const meanWeak = training.reduce((sum, index) => sum + qualities[index]!.weak, 0) / training.length;
  return { names: [...gain.keys()], gain, weak, meanGain, meanWeak };
}
/** Smoothed gain and weak quality of `subject`, leaving out row `own` when it is a training row of it. */
function subjectMeans(table: SubjectTable, subject: string, own?: number): [number, number] {
  const entry = table.gain.get(subject);
  if (!entry) return [table.meanGain, table.meanWeak];
  const leave = own !== undefined && subjects[own] === subject;
  const count = entry.count - (leave ? 1 : 0);
  const gain = entry.total - (leave ? gains[own]! : 0);
  const weak = table.weak.get(subject)!.total - (leave ? qualities[own]!.weak : 0);
  return [(gain + smoothingRows * table.meanGain) / (count + smoothingRows), (weak + smoothingRows * table.meanWeak) / (count + smoothingRows)];
}

const oracleNames = ['oracle:gain', 'oracle:weak'];
function oracleInputs(fold: number): number[][] {
  const training = cases.flatMap((_, index) => (index % folds === fold ? [] : [index]));
  const table = subjectTable(training);
  return cases.map((_, index) => subjectMeans(table, subjects[index]!, index % folds === fold ? undefined : index));
}
/** The same, but a training row's values come from the training rows of the other inner folds (no leave-one-out). */
function oracleFoldInputs(fold: number): number[][] {
  const training = cases.flatMap((_, index) => (index % folds === fold ? [] : [index]));
  const table = subjectTable(training);
  const inner = new Map<number, SubjectTable>();
  for (let other = 0; other < folds; other += 1) if (other !== fold) inner.set(other, subjectTable(training.filter((index) => index % folds !== other)));
  return cases.map((_, index) => subjectMeans(index % folds === fold ? table : inner.get(index % folds)!, subjects[index]!));
}
/** The shipped subject prior's inputs, a training row's from a prior fitted on the other inner folds (not leave-one-out). */
function priorFoldInputs(fold: number): number[][] {
  const training = cases.flatMap((_, index) => (index % folds === fold ? [] : [index]));
  const priors = new Map<number, SubjectPrior>();
  for (let other = 0; other < folds; other += 1) {
    if (other === fold) continue;
    priors.set(other, new SubjectPrior(trainSubjectPrior(training.filter((index) => index % folds !== other).map((index) => ({ subject: subjects[index]!, direction: directions[index]!, quality: qualities[index]! })))));
  }
  return cases.map((_, index) => (index % folds === fold ? [] : priors.get(index % folds)!.inputs(directions[index]!)));
}

const subjectNames = ['words-subject:gain', 'words-subject:weak', 'words-subject:best', 'words-subject:margin', 'words-subject:top-gain'];
function subjectInputs(fold: number): number[][] {
  const training = cases.flatMap((_, index) => (index % folds === fold ? [] : [index]));
  const result: number[][] = new Array(cases.length);
  // Outer-fold rows from all training rows; each training row from the training rows of the other inner folds.
  recogniseSubjects(training, cases.flatMap((_, index) => (index % folds === fold ? [index] : [])), result);
  for (let other = 0; other < folds; other += 1) {
    if (other === fold) continue;
    recogniseSubjects(training.filter((index) => index % folds !== other), training.filter((index) => index % folds === other), result);
  }
  const test = cases.flatMap((row, index) => (index % folds === fold && row.benchmark === 'mmlu' ? [index] : []));
  process.stderr.write(`fold ${fold}: recognised subject accuracy on MMLU ${(test.filter((index) => recognisedNames[index] === subjects[index]).length / test.length).toFixed(3)}\n`);
  return result;
}
const recognisedNames: string[] = new Array(cases.length);
function recogniseSubjects(training: number[], targets: number[], result: number[][]): void {
  const table = subjectTable(training);
  // Words in at least two training rows: a word only one prompt uses cannot point to a subject.
  const fitted = idfVectors(words, training);
  const vectorOf = (index: number) => fitted.vectorOf(index, 2);
  const centroids = new Map<string, Map<string, number>>();
  for (const index of training) {
    const centroid = centroids.get(subjects[index]!) ?? new Map<string, number>();
    for (const [word, value] of vectorOf(index)) centroid.set(word, (centroid.get(word) ?? 0) + value);
    centroids.set(subjects[index]!, centroid);
  }
  const names = [...centroids.keys()];
  const norms = names.map((name) => Math.sqrt([...centroids.get(name)!.values()].reduce((sum, value) => sum + value * value, 0)) || 1);
  const means = names.map((name) => subjectMeans(table, name));
  for (const index of targets) {
    const vector = vectorOf(index);
    const similarities = names.map((name, position) => {
      const centroid = centroids.get(name)!;
      let dot = 0;
      for (const [word, value] of vector) dot += value * (centroid.get(word) ?? 0);
      return dot / norms[position]!;
    });
    const order = similarities.map((_, position) => position).sort((a, b) => similarities[b]! - similarities[a]!);
    const best = similarities[order[0]!]!;
    let total = 0;
    let gain = 0;
    let weak = 0;
    names.forEach((_, position) => {
      const weight = Math.exp((similarities[position]! - best) / temperature);
      total += weight;
      gain += weight * means[position]![0];
      weak += weight * means[position]![1];
    });
    recognisedNames[index] = names[order[0]!]!;
    result[index] = [gain / total, weak / total, best, best - similarities[order[1]!]!, means[order[0]!]![0]];
  }
}

function report(scores: number[]): Record<string, number> {
  return benchmarkReport(cases, scores, qualities);
}

const foldCache = new Map<string, number[][]>();
function perFold(name: string, fold: number, build: (fold: number) => number[][]): number[][] {
  const key = `${name}:${fold}`;
  if (!foldCache.has(key)) foldCache.set(key, build(fold));
  return foldCache.get(key)!;
}

function crossValidate(set: string, seed: number): number[] {
  const parts = set.split('+');
  const scores = new Array<number>(cases.length).fill(0);
  for (let fold = 0; fold < folds; fold += 1) {
    const trainIndices = cases.flatMap((_, index) => (index % folds === fold ? [] : [index]));
    const priorRows = trainIndices.map((index) => ({ subject: subjects[index]!, direction: directions[index]!, quality: qualities[index]! }));
    const prior = new SubjectPrior(trainSubjectPrior(priorRows));
    const foldPrior = parts.includes('priorfold') ? perFold('priorfold', fold, priorFoldInputs) : [];
    const trainingPrior = parts.includes('priorfold') ? trainIndices.map((index) => foldPrior[index]!) : leaveOneOutSubjectPriorInputs(priorRows);
    const oracle = parts.includes('oracle') ? perFold('oracle', fold, oracleInputs) : parts.includes('oraclefold') ? perFold('oraclefold', fold, oracleFoldInputs) : [];
    const recognised = parts.includes('subjects') ? perFold('subjects', fold, subjectInputs) : [];
    const extra = (index: number): number[] => [
      ...(parts.includes('oracle') || parts.includes('oraclefold') ? oracle[index]! : []),
      ...(parts.includes('subjects') ? recognised[index]! : []),
      ...(parts.includes('options') ? optionValues[index]! : []),
      ...(parts.includes('arithmetic') ? arithmeticValues[index]! : []),
    ];
    const coverage = (probabilities: number[]): number[] => (parts.includes('coverage') ? probabilities.slice(4, 8) : []);
    const names = [
      ...correctionInputNames,
      ...(parts.includes('oracle') || parts.includes('oraclefold') ? oracleNames : []),
      ...(parts.includes('subjects') ? subjectNames : []),
      ...(parts.includes('options') ? optionNames : []),
      ...(parts.includes('arithmetic') ? arithmeticNames : []),
      ...(parts.includes('coverage') ? ['coverage:known-share', 'coverage:known', 'coverage:for-strong', 'coverage:for-weak'] : []),
    ];
    const inputs = (index: number, probabilities: number[], priorInputs: number[]) => [...probabilities.slice(0, 4), linearGain(probabilities), ...fixedInputs[index]!, ...priorInputs, ...extra(index), ...coverage(probabilities)];
    const { model, scale } = fitFoldCorrection({ cache, fold, trainIndices, gains, names, seed, inputs: (index, probabilities, position) => inputs(index, probabilities, trainingPrior[position]!) });
    cases.forEach((_, index) => {
      if (index % folds !== fold) return;
      const probabilities = cache.outer[index]!;
      scores[index] = correctionWeight * model.predict(inputs(index, probabilities, prior.inputs(directions[index]!))) + scale * linearGain(probabilities);
    });
  }
  return scores;
}

printSeedMeans(process.argv.slice(2), crossValidate, report);
