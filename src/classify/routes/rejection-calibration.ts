import type { SparseVector } from '../text/sparse-vector.js';
import type { TrainingExample } from '../text/train-linear-model.js';

/** Scores a request: the best route and its lead over "no route". */
export type MarginScorer = (features: SparseVector) => { best: number; margin: number };

export interface CalibrationOptions {
  /** How many models are trained, each without one group of held-out examples. */
  folds?: number;
  /** Examples of each route held out (spread over the folds); the rest of the examples always train. */
  heldOutPerRoute?: number;
  /** Share of correctly routed held-out examples the threshold must still accept. */
  acceptance?: number;
}

export interface HeldOutMargin {
  label: number;
  best: number;
  margin: number;
}

/**
 * Picks the rejection threshold on the route examples themselves: a few examples of each route are scored by
 * a model trained without them, which is what a new in-scope request looks like to the shipped model, whether a
 * route has ten examples or a thousand. The threshold is the margin that still accepts `acceptance` (98.75%) of
 * the held-out examples that were routed right; requests below it fall through to the default. Negatives train
 * the "no route" class but are not used here: held-out negatives resemble the training negatives far more than
 * real out-of-scope requests do (on CLINC they overstated rejection by 20 points).
 */
export function calibrateMargin(examples: readonly TrainingExample[], routeCount: number, trainScorer: (subset: readonly TrainingExample[]) => MarginScorer, options: CalibrationOptions = {}): number {
  return thresholdFrom(heldOutMargins(examples, routeCount, trainScorer, options), options.acceptance ?? 0.9875);
}

/**
 * Held-out margins: up to `heldOutPerRoute` examples per route, evenly spread over the route's examples,
 * dealt into `folds` groups; each group is scored by a model trained on every other example. Holding out a
 * small group rather than a fifth keeps each fold model close to the full one (and start-up short).
 */
export function heldOutMargins(examples: readonly TrainingExample[], routeCount: number, trainScorer: (subset: readonly TrainingExample[]) => MarginScorer, options: CalibrationOptions = {}): HeldOutMargin[] {
  const folds = options.folds ?? 3;
  const perRoute = options.heldOutPerRoute ?? 150;
  const positionsByRoute = new Map<number, number[]>();
  examples.forEach((example, position) => {
    if (example.label < routeCount) positionsByRoute.set(example.label, [...(positionsByRoute.get(example.label) ?? []), position]);
  });
  const foldOf = new Map<number, number>();
  for (const positions of positionsByRoute.values()) {
    if (positions.length < 2) continue; // a single example cannot be held out from its own route
    const count = Math.min(perRoute, positions.length);
    const step = positions.length / count;
    for (let index = 0; index < count; index += 1) foldOf.set(positions[Math.floor(index * step)]!, index % folds);
  }
  const heldOut: HeldOutMargin[] = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const testing = [...foldOf].filter(([, itemFold]) => itemFold === fold).map(([position]) => position);
    if (!testing.length) continue;
    const scorer = trainScorer(examples.filter((_, position) => foldOf.get(position) !== fold));
    for (const position of testing) heldOut.push({ label: examples[position]!.label, ...scorer(examples[position]!.features) });
  }
  return heldOut;
}

/** The margin accepting `acceptance` of the correctly routed held-out examples (never below 0). */
export function thresholdFrom(heldOut: readonly HeldOutMargin[], acceptance: number): number {
  const correct = heldOut.filter((item) => item.best === item.label).map((item) => item.margin).sort((left, right) => left - right);
  if (!correct.length) return 0;
  // The k lowest margins fall below the threshold, k = ⌊(1 − acceptance)·n⌋: at least `acceptance` is kept.
  const index = Math.min(correct.length - 1, Math.floor((1 - acceptance) * correct.length + 1e-9));
  return Math.max(0, Math.round(correct[index]! * 1000) / 1000);
}
