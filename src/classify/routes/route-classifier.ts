import { LinearModel, round } from '../text/linear-model.js';
import type { FeatureContribution } from '../text/linear-model.js';
import type { TrainingExample } from '../text/train-linear-model.js';
import { trainLinearModel } from '../text/train-linear-model.js';
import { utteranceFeatures } from './features.js';
import { NearestExampleIndex } from './nearest-example.js';

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
  /** Word cosine with the best route's nearest example. */
  similarity: number;
  /** The best route even when it was rejected. */
  candidate: string | undefined;
  features: FeatureContribution[];
}

export interface RouteClassifierOptions {
  /** Examples that belong to no route; they become an explicit "no route" class. */
  negatives?: readonly string[];
  /** A route is given only when its probability reaches this and beats the "no route" class. */
  threshold?: number;
  /** ...and when the request's word cosine with the route's nearest example reaches this. */
  minSimilarity?: number;
  /** How much each negative example counts against the routes (they are usually far fewer). */
  negativeWeight?: number;
  epochs?: number;
}

const noRoute = '<none>';

/**
 * Builds a route classifier from examples: a logistic regression over words, word pairs and character
 * trigrams with one class per route plus a "no route" class, trained deterministically in a few passes so
 * that a router can build it from configuration at start-up. Out-of-scope requests are rejected when no route
 * is probable enough.
 */
export class RouteClassifier {
  readonly routes: readonly string[];
  readonly threshold: number;
  readonly minSimilarity: number;
  private readonly model: LinearModel;
  private readonly nearest: NearestExampleIndex;

  constructor(definitions: readonly RouteDefinition[], options: RouteClassifierOptions = {}) {
    this.routes = definitions.map((definition) => definition.name);
    this.threshold = options.threshold ?? 0.5;
    this.minSimilarity = options.minSimilarity ?? 0.15;
    const classes = [...this.routes, noRoute];
    const examples: TrainingExample[] = definitions.flatMap((definition, label) =>
      [...definition.utterances, ...(definition.description ? [definition.description] : [])].map((text) => ({ features: utteranceFeatures(text), label })),
    );
    const negatives = options.negatives ?? [];
    const negativeWeight = options.negativeWeight ?? 5;
    for (const text of negatives) examples.push({ features: utteranceFeatures(text), label: this.routes.length, weight: negativeWeight });
    this.nearest = new NearestExampleIndex(
      definitions.flatMap((definition, route) => [...definition.utterances, ...(definition.description ? [definition.description] : [])].map((text) => ({ text, route }))),
    );
    this.model = new LinearModel(trainLinearModel(examples, { classes, epochs: options.epochs ?? 4, learningRate: 0.3, l2: 1e-4, seed: 3, pruneBelow: 0 }));
  }

  match(text: string): RouteMatch {
    const features = utteranceFeatures(text);
    const { probabilities } = this.model.predict(features);
    let best = 0;
    for (let index = 1; index < this.routes.length; index += 1) if ((probabilities[index] ?? 0) > (probabilities[best] ?? 0)) best = index;
    const confidence = probabilities[best] ?? 0;
    const noRouteProbability = probabilities[this.routes.length] ?? 0;
    const similarity = this.routes.length ? (this.nearest.bestSimilarityByRoute(text, this.routes.length)[best] ?? 0) : 0;
    const accepted = this.routes.length > 0 && confidence >= this.threshold && confidence > noRouteProbability && similarity >= this.minSimilarity;
    return {
      route: accepted ? this.routes[best] : undefined,
      confidence: round(confidence, 4),
      similarity: round(similarity, 4),
      candidate: this.routes[best],
      features: this.model.explain(features, best, 5),
    };
  }
}
