import { LinearModel, round } from '../text/linear-model.js';
import type { FeatureContribution } from '../text/linear-model.js';
import type { SparseVector } from '../text/sparse-vector.js';
import type { TrainingExample } from '../text/train-linear-model.js';
import { trainLinearModel } from '../text/train-linear-model.js';
import { utteranceFeatures } from './features.js';
import { NearestExampleIndex } from './nearest-example.js';
import { calibrateMargin, thresholdForRejection, unknownRouteMargins } from './rejection-calibration.js';

/** A user-defined route: a name, an optional description and example utterances (like semantic-router). */
export interface RouteDefinition {
  name: string;
  description?: string;
  utterances: readonly string[];
}

export interface RouteMatch {
  /** Undefined when the request is out of scope of every route. */
  route: string | undefined;
  /** Probability of the best route. */
  confidence: number;
  /** Probability of the best route minus that of "no route": what the rejection threshold is compared with. */
  margin: number;
  /** Word cosine with the best route's nearest example. */
  similarity: number;
  /** The best route even when it was rejected. */
  candidate: string | undefined;
  features: FeatureContribution[];
}

export interface RouteClassifierOptions {
  /** Examples that belong to no route; they become an explicit "no route" class. */
  negatives?: readonly string[];
  /**
   * A route is given only when its probability minus that of "no route" reaches this. Left out, it is
   * calibrated on the examples themselves (held-out folds, see rejection-calibration.ts).
   */
  threshold?: number;
  /**
   * Without negatives: a route also needs the request's word cosine with its nearest example to reach this.
   * With negatives the "no route" class rejects by itself, and this gate only cost in-scope accuracy (CLINC
   * val: 0.952 → 0.943 for one point of rejection).
   */
  minSimilarity?: number;
  /**
   * Share of simulated unknown requests (examples of routes left out of a calibration model) the calibrated
   * threshold rejects; 0.55 gave about 0.80 of real out-of-scope requests on CLINC at every size.
   */
  targetRejection?: number;
  /** How much each negative example counts against the routes; by default negatives weigh as much as one average route, capped at 5 each. */
  negativeWeight?: number;
  epochs?: number;
  /** Calibration models trained, each without some routes (default: `defaultCalibrationFolds`). */
  calibrationFolds?: number;
}

const noRoute = '<none>';

/**
 * Builds a route classifier from examples: a logistic regression over words, word pairs, character trigrams
 * and word-vector meaning, with one class per route plus a "no route" class, trained deterministically so that
 * a router can build it from configuration at start-up. Out-of-scope requests are rejected when no route
 * is probable enough against "no route", by a margin calibrated on held-out folds of the examples, so ten
 * examples per route and a thousand reject alike.
 */
export class RouteClassifier {
  readonly routes: readonly string[];
  readonly threshold: number;
  readonly minSimilarity: number;
  private readonly model: LinearModel;
  private readonly nearest: NearestExampleIndex;

  constructor(definitions: readonly RouteDefinition[], options: RouteClassifierOptions = {}) {
    this.routes = definitions.map((definition) => definition.name);
    // A softmax over one route, or over routes and a "no route" class that never saw an example, is sure of
    // itself on anything: then content words shared with an example are the scope check.
    this.minSimilarity = options.minSimilarity ?? ((options.negatives ?? []).length ? 0 : 0.15);
    const texts = definitions.map((definition) => [...definition.utterances, ...(definition.description ? [definition.description] : [])]);
    const examples: TrainingExample[] = texts.flatMap((list, label) => list.map((text) => ({ features: utteranceFeatures(text), label })));
    const negatives = options.negatives ?? [];
    const averageRouteSize = examples.length / Math.max(1, definitions.length);
    // A hundred negatives must not drown routes of ten examples each, nor vanish against routes of a thousand.
    const negativeWeight = options.negativeWeight ?? Math.max(0.2, Math.min(5, averageRouteSize / Math.max(1, negatives.length)));
    for (const text of negatives) examples.push({ features: utteranceFeatures(text), label: this.routes.length, weight: negativeWeight });
    this.nearest = new NearestExampleIndex(texts.flatMap((list, route) => list.map((text) => ({ text, route }))));
    const train = (subset: readonly TrainingExample[]) => new LinearModel(trainLinearModel(subset, { classes: [...this.routes, noRoute], epochs: options.epochs ?? epochsFor(subset.length), learningRate: 0.3, l2: 1e-4, seed: 3, pruneBelow: 0 }));
    this.model = train(examples);
    const trainScorer = (subset: readonly TrainingExample[]) => {
      const model = train(subset);
      return (features: SparseVector) => marginOf(model.predict(features).probabilities, this.routes.length);
    };
    // With negatives and at least three routes, rejection is calibrated on routes left out of the model (what an
    // unknown request looks like); otherwise on held-out examples of the routes (what a known one looks like).
    this.threshold =
      options.threshold ??
      (negatives.length && this.routes.length >= 3
        ? thresholdForRejection(unknownRouteMargins(examples, this.routes.length, trainScorer, { folds: options.calibrationFolds ?? defaultCalibrationFolds(this.routes.length, averageRouteSize) }), options.targetRejection ?? 0.55)
        : calibrateMargin(examples, this.routes.length, trainScorer));
  }

  match(text: string): RouteMatch {
    const features = utteranceFeatures(text);
    const { probabilities } = this.model.predict(features);
    const { best, confidence, margin } = marginOf(probabilities, this.routes.length);
    const similarity = this.routes.length ? (this.nearest.bestSimilarityByRoute(text, this.routes.length)[best] ?? 0) : 0;
    const accepted = this.routes.length > 0 && margin > 0 && margin >= this.threshold && similarity >= this.minSimilarity;
    return {
      route: accepted ? this.routes[best] : undefined,
      confidence: round(confidence, 4),
      margin: round(margin, 4),
      similarity: round(similarity, 4),
      candidate: this.routes[best],
      features: this.model.explain(features, best, 5),
    };
  }
}

/** The best route, its probability, and its lead over "no route" (the last class). */
export function marginOf(probabilities: readonly number[], routeCount: number): { best: number; confidence: number; margin: number } {
  let best = 0;
  for (let index = 1; index < routeCount; index += 1) if ((probabilities[index] ?? 0) > (probabilities[best] ?? 0)) best = index;
  const confidence = probabilities[best] ?? 0;
  return { best, confidence, margin: confidence - (probabilities[routeCount] ?? 0) };
}

/**
 * One calibration model per left-out route while routes are small (up to 20 examples each, at most 20 models),
 * else five. Each model then lacks one route instead of a fifth of them, so it is closer to the shipped model,
 * and the simulated unknowns vary less with which ten examples the user happened to write: on CLINC's dev split
 * (three draws of the examples, scripts/classifiers/routes-calibration-trials.ts), out-of-scope rejection at 10
 * examples per route went from 0.77 / 0.84 / 0.83 with five models to 0.83 / 0.82 / 0.82 at equal accuracy
 * (0.565 / 0.563 mean). At 30 and 100 examples it changed nothing beyond noise (30: 0.86 / 0.74 / 0.87 →
 * 0.85 / 0.74 / 0.85) and doubled the build's CPU (30: 1.8 → 3.8 s, 100: 5.1 → 11.1 s), so five stay there.
 */
export function defaultCalibrationFolds(routeCount: number, averageRouteSize: number): number {
  return averageRouteSize <= 20 ? Math.min(routeCount, 20) : 5;
}

/** Few examples need more passes to fit; many examples fit in a few (and must build fast at start-up). */
function epochsFor(exampleCount: number): number {
  return Math.max(10, Math.min(40, Math.ceil(120_000 / Math.max(1, exampleCount))));
}
