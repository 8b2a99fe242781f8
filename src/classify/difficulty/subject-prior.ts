import type { SparseVector } from '../text/sparse-vector.js';

/**
 * How the cheap and the strong model fare on prompts of the subject a prompt is closest to in meaning: a pooled,
 * low-variance estimate next to the linear model's per-word one, for the boosted trees. Training rows carry a
 * subject label (the RouteLLM data's benchmark and MMLU subject / MT-Bench category; training only); a prompt
 * is compared with each subject's mean word-vector direction, and the subjects' smoothed mean outcomes are
 * averaged with softmax weights over the cosine similarities. 5-fold CV on the dev split, tree stage over the
 * same linear outputs, mean of 5 tree seeds: overall APGR +0.001, GSM8K +0.005 (docs/difficulty-routing.md).
 */
export interface SubjectPriorJson {
  /** Softmax temperature over cosine similarities (0.05: the nearest subjects dominate). */
  temperature: number;
  subjects: SubjectSummary[];
}

export interface SubjectSummary {
  name: string;
  /** Unit-length mean word-vector direction of the subject's training prompts. */
  direction: number[];
  /** Smoothed mean of strong − weak quality, and of weak quality. */
  gain: number;
  weak: number;
}

export const subjectPriorInputNames = ['subject:gain', 'subject:weak', 'subject:similarity'] as const;

/** Training rows of one subject count as this many rows of the overall mean (small subjects shrink toward it). */
const smoothingRows = 10;
const temperature = 0.05;

export interface SubjectPriorRow {
  subject: string;
  /** The prompt's meaning direction (`meaningDirection`); all zeros when no word had a vector. */
  direction: readonly number[];
  quality: { weak: number; strong: number };
}

const vectorFeatureNames = Array.from({ length: 64 }, (_, index) => `v:${index}`);

/** The prompt's word-vector meaning as a unit vector, read back from its `v:` difficulty features. */
export function meaningDirection(features: SparseVector, dimensions = 64): number[] {
  const vector = new Array<number>(dimensions);
  let squares = 0;
  for (let index = 0; index < dimensions; index += 1) {
    const value = features.get(vectorFeatureNames[index] ?? `v:${index}`) ?? 0;
    vector[index] = value;
    squares += value * value;
  }
  const norm = Math.sqrt(squares);
  if (norm > 0) for (let index = 0; index < dimensions; index += 1) vector[index]! /= norm;
  return vector;
}

/** One summary per subject of the training rows; undefined when no row has a subject. */
export function trainSubjectPrior(rows: readonly SubjectPriorRow[]): SubjectPriorJson | undefined {
  const table = subjectTotals(rows);
  if (table.totals.size === 0) return undefined;
  const subjects = [...table.totals.entries()].map(([name, total]) => ({
    name,
    direction: unit(total.direction).map(round4),
    gain: round4((total.gain + smoothingRows * table.meanGain) / (total.count + smoothingRows)),
    weak: round4((total.weak + smoothingRows * table.meanWeak) / (total.count + smoothingRows)),
  }));
  return { temperature, subjects };
}

/**
 * The prior's three inputs for an unseen prompt: weighted subject gain, weighted subject weak quality, best
 * cosine. Built once with the weights; a decision is one pass over the subjects' directions (~66 × 64 products).
 */
export class SubjectPrior {
  private readonly directions: Float64Array;
  private readonly dimensions: number;
  private readonly similarities: Float64Array;

  constructor(private readonly json: SubjectPriorJson | undefined) {
    this.dimensions = json?.subjects[0]?.direction.length ?? 0;
    this.directions = Float64Array.from((json?.subjects ?? []).flatMap((subject) => subject.direction));
    this.similarities = new Float64Array(json?.subjects.length ?? 0);
  }

  inputs(direction: readonly number[]): number[] {
    const subjects = this.json?.subjects;
    if (!subjects?.length) return [0, 0, 0];
    let best = -Infinity;
    for (let subject = 0; subject < subjects.length; subject += 1) {
      let similarity = 0;
      const offset = subject * this.dimensions;
      for (let index = 0; index < this.dimensions; index += 1) similarity += this.directions[offset + index]! * (direction[index] ?? 0);
      this.similarities[subject] = similarity;
      if (similarity > best) best = similarity;
    }
    let total = 0;
    let gain = 0;
    let weak = 0;
    for (let subject = 0; subject < subjects.length; subject += 1) {
      const weight = Math.exp((this.similarities[subject]! - best) / this.json!.temperature);
      total += weight;
      gain += weight * subjects[subject]!.gain;
      weak += weight * subjects[subject]!.weak;
    }
    return [gain / total, weak / total, best];
  }
}

/**
 * The same inputs for the training rows themselves, each row left out of its own subject's summary, so the
 * trees learn from priors like those of prompts the table has not seen.
 */
export function leaveOneOutSubjectPriorInputs(rows: readonly SubjectPriorRow[]): number[][] {
  const table = subjectTotals(rows);
  if (table.totals.size === 0) return rows.map(() => [0, 0, 0]);
  const entries = [...table.totals.entries()];
  return rows.map((row) =>
    blend(
      temperature,
      entries.flatMap(([name, total]) => {
        const own = name === row.subject;
        const count = total.count - (own ? 1 : 0);
        if (count <= 0) return [];
        const direction = own ? total.direction.map((value, index) => value - (row.direction[index] ?? 0)) : total.direction;
        const gain = total.gain - (own ? row.quality.strong - row.quality.weak : 0);
        const weak = total.weak - (own ? row.quality.weak : 0);
        return [{ similarity: dot(unit(direction), row.direction), gain: (gain + smoothingRows * table.meanGain) / (count + smoothingRows), weak: (weak + smoothingRows * table.meanWeak) / (count + smoothingRows) }];
      }),
    ),
  );
}

interface SubjectTotal {
  direction: number[];
  gain: number;
  weak: number;
  count: number;
}

function subjectTotals(rows: readonly SubjectPriorRow[]): { totals: Map<string, SubjectTotal>; meanGain: number; meanWeak: number } {
  const totals = new Map<string, SubjectTotal>();
  for (const row of rows) {
    if (!row.subject) continue;
    const total = totals.get(row.subject) ?? { direction: new Array<number>(row.direction.length).fill(0), gain: 0, weak: 0, count: 0 };
    row.direction.forEach((value, index) => {
      total.direction[index]! += value;
    });
    total.gain += row.quality.strong - row.quality.weak;
    total.weak += row.quality.weak;
    total.count += 1;
    totals.set(row.subject, total);
  }
  const counted = rows.filter((row) => row.subject);
  const meanGain = counted.reduce((sum, row) => sum + row.quality.strong - row.quality.weak, 0) / Math.max(1, counted.length);
  const meanWeak = counted.reduce((sum, row) => sum + row.quality.weak, 0) / Math.max(1, counted.length);
  return { totals, meanGain, meanWeak };
}

function blend(softmaxTemperature: number, subjects: readonly { similarity: number; gain: number; weak: number }[]): number[] {
  if (subjects.length === 0) return [0, 0, 0];
  const best = Math.max(...subjects.map((subject) => subject.similarity));
  const weights = subjects.map((subject) => Math.exp((subject.similarity - best) / softmaxTemperature));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const gain = subjects.reduce((sum, subject, index) => sum + weights[index]! * subject.gain, 0) / total;
  const weak = subjects.reduce((sum, subject, index) => sum + weights[index]! * subject.weak, 0) / total;
  return [gain, weak, best];
}

function dot(left: readonly number[], right: readonly number[]): number {
  let total = 0;
  for (let index = 0; index < left.length; index += 1) total += left[index]! * (right[index] ?? 0);
  return total;
}

function unit(vector: readonly number[]): number[] {
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((value) => value / norm) : [...vector];
}

function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
