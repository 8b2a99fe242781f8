import { describe, expect, it } from 'vitest';
import { addFeature } from '../text/sparse-vector.js';
import { DifficultyLinear, minimumKindRows, trainDifficultyLinear } from './linear-stage.js';
import { promptKind } from './prompt-kind.js';

const choicePrompt = (index: number) => `Question ${index}: which is right?\nA. one\nB. two\nC. three\nD. four\nAnswer:`;
const wordProblem = (index: number) => `Sam has ${index} apples and buys ${index % 5} more. How many does he have?`;

function rowsOf(prompts: string[], label: (index: number) => { weak: number; strong: number }) {
  return prompts.map((prompt, index) => {
    const features = new Map<string, number>();
    addFeature(features, 'w:shared', 1);
    return { prompt, features, quality: label(index) };
  });
}

describe('promptKind', () => {
  it('reads multiple-choice options from the shape of the prompt', () => {
    expect(promptKind(choicePrompt(1))).toBe('choice');
    expect(promptKind('Options:\nA) yes\nB) no')).toBe('choice');
    expect(promptKind(wordProblem(3))).toBe('other');
    expect(promptKind('A. single line that starts like an option')).toBe('other');
  });
});

describe('trainDifficultyLinear', () => {
  it('gives multiple-choice prompts a model of their own, learnt from them alone', () => {
    // Same features everywhere; only the kind tells the outcomes apart: choice rows are "strong only", others "both".
    const rows = [
      ...rowsOf(Array.from({ length: minimumKindRows }, (_, index) => choicePrompt(index)), () => ({ weak: 0, strong: 1 })),
      ...rowsOf(Array.from({ length: 60 }, (_, index) => wordProblem(index)), () => ({ weak: 1, strong: 1 })),
    ];
    const json = trainDifficultyLinear(rows);
    expect(Object.keys(json.kindModels ?? {})).toEqual(['choice']);
    const linear = new DifficultyLinear(json);
    const features = rows[0]!.features;
    expect(linear.predict(choicePrompt(999), features)[1]).toBeGreaterThan(0.5);
    expect(linear.predict(wordProblem(999), features)[0]).toBeGreaterThan(0.5);
  });

  it('keeps one model for all rows when no kind has enough of them', () => {
    const rows = rowsOf([choicePrompt(1), wordProblem(2)], () => ({ weak: 1, strong: 1 }));
    expect(trainDifficultyLinear(rows).kindModels).toBeUndefined();
  });
});
