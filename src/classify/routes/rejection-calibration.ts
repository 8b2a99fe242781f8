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

export interface UnknownRouteOptions {
  /** How many models are trained, each without every `folds`-th route (default: min(5, routes)). */
  folds?: number;
  /** Examples of each left-out route that are scored (evenly spread). */
  perRoute?: number;
}

/**
 * Margins of requests no route knows, simulated from the examples themselves: each of `folds` models is
 * trained without some routes entirely (negatives kept), and the left-out routes' examples are scored. To that
 * model they are what a real out-of-scope request is to the shipped one: a sensible request from a subject it
 * was never shown. Unlike held-out negatives (which resemble the training negatives), their margins keep the
 * same relation to real out-of-scope margins whether a route has ten examples or a thousand.
 */
export function unknownRouteMargins(examples: readonly TrainingExample[], routeCount: number, trainScorer: (subset: readonly TrainingExample[]) => MarginScorer, options: UnknownRouteOptions = {}): number[] {
  const folds = Math.max(2, Math.min(options.folds ?? 5, routeCount));
  const perRoute = options.perRoute ?? 30;
  const margins: number[] = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const leftOut = (label: number) => label < routeCount && label % folds === fold;
    const scorer = trainScorer(examples.filter((example) => !leftOut(example.label)));
    for (let route = fold; route < routeCount; route += folds) {
      const positions = examples.flatMap((example, position) => (example.label === route ? [position] : []));
      const count = Math.min(perRoute, positions.length);
      const step = positions.length / Math.max(1, count);
      for (let index = 0; index < count; index += 1) margins.push(scorer(examples[positions[Math.floor(index * step)]!]!.features).margin);
    }
  }
  return margins;
}

/**
 * The smallest margin threshold that rejects `targetRejection` of the simulated unknown requests (never below
 * 0). 0.55 of left-out routes corresponded to about 0.80 of CLINC's real out-of-scope requests at 10, 30, 100
 * and 1,500 examples per route (dev split): left-out routes are harder to reject than real out-of-scope text,
 * because they are still requests of the same assistant.
 */
export function thresholdForRejection(margins: readonly number[], targetRejection: number): number {
  if (!margins.length) return 0;
  const sorted = [...margins].sort((left, right) => left - right);
  const rejected = Math.min(sorted.length, Math.max(1, Math.ceil(targetRejection * sorted.length)));
  const below = sorted[rejected - 1]!;
  const above = sorted[rejected] ?? below + 1e-3;
  // Midway between the last margin to reject and the next: margins below it are rejected (match() accepts margin >= threshold).
  return Math.max(0, Math.round(((below + above) / 2) * 1000) / 1000);
}
