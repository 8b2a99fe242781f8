import { describe, expect, it } from 'vitest';
import { SubjectPrior, leaveOneOutSubjectPriorInputs, meaningDirection, trainSubjectPrior } from './subject-prior.js';

const subjectPriorInputs = (json: ReturnType<typeof trainSubjectPrior>, direction: number[]): number[] => new SubjectPrior(json).inputs(direction);

const east = [1, 0];
const north = [0, 1];
// Law-like prompts: the strong model alone right on every one; trivia-like: both right.
const rows = [
  ...Array.from({ length: 10 }, () => ({ subject: 'mmlu:law', direction: east, quality: { weak: 0, strong: 1 } })),
  ...Array.from({ length: 10 }, () => ({ subject: 'mmlu:trivia', direction: north, quality: { weak: 1, strong: 1 } })),
];

describe('subject prior', () => {
  it("gives a prompt the smoothed outcomes of the subject nearest in meaning", () => {
    const prior = trainSubjectPrior(rows)!;
    // Mean gain 0.5 over all rows; ten rows of gain 1 against ten of smoothing: 0.75.
    const [gain, weak, similarity] = subjectPriorInputs(prior, [0.99, 0.141]);
    expect(gain).toBeCloseTo(0.75, 2);
    expect(weak).toBeCloseTo(0.25, 2);
    expect(similarity).toBeCloseTo(0.99, 5);
    expect(subjectPriorInputs(prior, north)[0]).toBeCloseTo(0.25, 2);
  });

  it('leaves a training row out of its own subject', () => {
    const lonely = [...rows, { subject: 'mmlu:lonely', direction: [0.7071, 0.7071], quality: { weak: 0, strong: 0 } }];
    const inputs = leaveOneOutSubjectPriorInputs(lonely);
    // The lonely row sees only law and trivia (equally close), never its own label.
    expect(inputs[20]![2]).toBeCloseTo(0.7071, 3);
    const withItself = subjectPriorInputs(trainSubjectPrior(lonely), [0.7071, 0.7071]);
    expect(withItself[2]).toBeCloseTo(1, 3);
    // A law row's own outcome is taken out of law's mean: nine rows of gain 1 (plus a trace of the lonely subject).
    expect(inputs[0]![0]).toBeCloseTo((9 + 10 * (10 / 21)) / 19, 2);
    expect(subjectPriorInputs(trainSubjectPrior(lonely), east)[0]).toBeCloseTo((10 + 10 * (10 / 21)) / 20, 2);
  });

  it('is absent without subject labels, and reads the meaning direction back from the v: features', () => {
    expect(trainSubjectPrior(rows.map((row) => ({ ...row, subject: '' })))).toBeUndefined();
    expect(subjectPriorInputs(undefined, east)).toEqual([0, 0, 0]);
    const direction = meaningDirection(new Map([['v:0', 0.3], ['v:2', 0.4], ['w:law', 1]]), 3);
    expect(direction).toEqual([0.6, 0, 0.8]);
  });
});
