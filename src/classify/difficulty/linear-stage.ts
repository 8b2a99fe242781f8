import { LinearModel } from '../text/linear-model.js';
import type { LinearModelJson } from '../text/linear-model.js';
import type { SparseVector } from '../text/sparse-vector.js';
import { promptKind, promptKinds } from './prompt-kind.js';
import type { PromptKind } from './prompt-kind.js';
import type { DifficultyTrainingRow } from './train.js';
import { trainDifficultyModel } from './train.js';

/**
 * The linear outcome models: one per prompt kind that has its own (`kindModels`), and `model` for every prompt
 * whose kind has none. 5-fold CV on the RouteLLM dev split: a multiple-choice model apart from the free-form
 * one moved the linear stage (see docs/difficulty-routing.md; GSM8K gained most: word problems no
 * longer share weights with 9,800 MMLU questions whose words mean something else for difficulty).
 */
export interface DifficultyLinearJson {
  model: LinearModelJson;
  kindModels?: Partial<Record<PromptKind, LinearModelJson>>;
}

export interface DifficultyPromptRow extends DifficultyTrainingRow {
  prompt: string;
  /** Benchmark and subject of a training row (training only: the subject prior's label). */
  subject?: string;
}

/** Kinds that get a model of their own when the training rows have enough of them. */
export const ownModelKinds: readonly PromptKind[] = ['choice'];
/** Fewer rows of a kind than this, and they stay with the default model (a model of a few rows only adds noise). */
export const minimumKindRows = 300;

export function trainDifficultyLinear(rows: readonly DifficultyPromptRow[]): DifficultyLinearJson {
  const kinds = rows.map((row) => promptKind(row.prompt));
  const separate = ownModelKinds.filter((kind) => kinds.filter((rowKind) => rowKind === kind).length >= minimumKindRows);
  const kindModels: Partial<Record<PromptKind, LinearModelJson>> = {};
  for (const kind of separate) kindModels[kind] = trainDifficultyModel(rows.filter((_, index) => kinds[index] === kind));
  const rest = rows.filter((_, index) => !separate.includes(kinds[index]!));
  // The default model learns from the rows no kind model took; when every row went to one, from all of them, so a
  // prompt unlike any kind still gets a model.
  const model = trainDifficultyModel(rest.length > 0 ? rest : rows);
  return separate.length > 0 ? { model, kindModels } : { model };
}

/** Picks the linear model for a prompt by its kind. */
export class DifficultyLinear {
  private readonly fallback: LinearModel;
  private readonly byKind = new Map<PromptKind, LinearModel>();

  constructor(json: DifficultyLinearJson) {
    this.fallback = new LinearModel(json.model);
    for (const kind of promptKinds) {
      const model = json.kindModels?.[kind];
      if (model) this.byKind.set(kind, new LinearModel(model));
    }
  }

  modelFor(prompt: string): LinearModel {
    return this.byKind.get(promptKind(prompt)) ?? this.fallback;
  }

  /** The four outcome probabilities: both right, strong only, neither, weak only. */
  predict(prompt: string, features: SparseVector): number[] {
    return this.modelFor(prompt).predict(features).probabilities;
  }
}
