import { optionFeatureNames, optionFeatures } from './option-features.js';
import { structureFeatureNames, structureFeatures } from './structure-features.js';
import { subjectPriorInputNames } from './subject-prior.js';

/**
 * The inputs of the boosted-tree correction: the linear model's four outcome probabilities and its gain
 * estimate, then the prompt's structure measures, its answer-option measures and the subject prior
 * (`subject-prior.ts`). The trees read the linear estimate next to them, so they can correct it where the
 * structure says more than the words (a word problem with many quantities, a question whose options are close
 * distractors).
 */
export const correctionInputNames = [
  'linear:both',
  'linear:strong_only',
  'linear:neither',
  'linear:weak_only',
  'linear:gain',
  ...structureFeatureNames.map((name) => `structure:${name}`),
  ...optionFeatureNames.map((name) => `option:${name}`),
  ...subjectPriorInputNames,
];

/** `subjectPrior`: the three `subjectPriorInputs` (zeros when the weights carry no prior). */
export function correctionInputs(prompt: string, outcomeProbabilities: readonly number[], subjectPrior: readonly number[] = [0, 0, 0]): number[] {
  const structure = structureFeatures(prompt);
  const options = optionFeatures(prompt);
  return [
    ...outcomeProbabilities.slice(0, 4),
    linearGain(outcomeProbabilities),
    ...structureFeatureNames.map((name) => structure[name]),
    ...optionFeatureNames.map((name) => options[name]),
    ...subjectPrior,
  ];
}

/** Expected quality gain of the strong model, from the outcome probabilities: P(strong only) − P(weak only). */
export function linearGain(outcomeProbabilities: readonly number[]): number {
  return (outcomeProbabilities[1] ?? 0) - (outcomeProbabilities[3] ?? 0);
}
