import { performance } from 'node:perf_hooks';
import type { RouteClassifierOptions } from '../classify/routes/route-classifier.js';
import { RouteClassifier } from '../classify/routes/route-classifier.js';
import type { RouteRow } from './topic-cases.js';
import { percentileMs, timeDecisions } from './timing.js';

export interface RouteEvalReport {
  routes: number;
  /** Training utterances kept per route (`all` = every train row). */
  examples_per_route: number | 'all';
  train_utterances: number;
  negatives: number;
  cases: number;
  in_scope: number;
  out_of_scope: number;
  route_accuracy: number;
  oos_rejection: number;
  /** The rejection margin in force (calibrated on the training examples unless given). */
  route_threshold: number;
  build_ms: number;
  p50_ms: number;
  p99_ms: number;
}

/**
 * Builds user-defined routes from the `train` rows (one route per domain; `oos_train` rows serve as
 * negatives) and scores every row of `cases` that is not a training row: in-scope rows must get their
 * domain, out-of-scope rows (`domain: null`) must get no route.
 */
export function runRouteEval(trainingRows: readonly RouteRow[], caseRows: readonly RouteRow[], options: RouteClassifierOptions & { examplesPerRoute?: number } = {}): RouteEvalReport {
  const byDomain = new Map<string, string[]>();
  for (const row of trainingRows) {
    if (row.split !== 'train' || !row.domain) continue;
    byDomain.set(row.domain, [...(byDomain.get(row.domain) ?? []), row.text]);
  }
  const perRoute = options.examplesPerRoute;
  if (perRoute !== undefined) for (const [domain, texts] of byDomain) byDomain.set(domain, evenlySpaced(texts, perRoute));
  const negatives = trainingRows.filter((row) => row.split === 'oos_train').map((row) => row.text);
  const started = performance.now();
  const classifier = new RouteClassifier(
    [...byDomain].sort(([left], [right]) => left.localeCompare(right)).map(([name, utterances]) => ({ name, utterances })),
    { negatives, ...options },
  );
  const buildMs = performance.now() - started;

  const scored = caseRows.filter((row) => row.split !== 'train' && row.split !== 'oos_train');
  // Warm on text of its own, then time each row as the median of three passes (see timeDecisions).
  for (let round = 0; round < 20; round += 1) for (const text of routeWarmUpTexts) classifier.match(text);
  const timed = timeDecisions(scored.map((row) => row.text), (text) => classifier.match(text), 3);
  const durations = timed.medianMs;
  let inScope = 0;
  let routedRight = 0;
  let outOfScope = 0;
  let rejected = 0;
  for (const [index, row] of scored.entries()) {
    const match = timed.outputs[index]!;
    if (row.domain) {
      inScope += 1;
      if (match.route === row.domain) routedRight += 1;
    } else {
      outOfScope += 1;
      if (match.route === undefined) rejected += 1;
    }
  }
  const round = (value: number) => Math.round(value * 10000) / 10000;
  return {
    routes: byDomain.size,
    examples_per_route: perRoute ?? 'all',
    train_utterances: [...byDomain.values()].reduce((sum, list) => sum + list.length, 0),
    negatives: negatives.length,
    cases: scored.length,
    in_scope: inScope,
    out_of_scope: outOfScope,
    route_accuracy: round(inScope ? routedRight / inScope : 0),
    oos_rejection: round(outOfScope ? rejected / outOfScope : 0),
    route_threshold: classifier.threshold,
    build_ms: Math.round(buildMs),
    p50_ms: percentileMs(durations, 50),
    p99_ms: percentileMs(durations, 99),
  };
}

/** Synthetic requests for the warm-up (written for it; not from CLINC). */
const routeWarmUpTexts = ['hello there', 'please move forty dollars into my savings account', 'what should I cook tonight with rice and beans', '帮我订一张去上海的机票'];

/**
 * `count` items spread evenly over the list. CLINC's train rows come grouped by intent within a domain, so
 * an even spread keeps every intent of a route represented, as a user writing ten examples would.
 */
function evenlySpaced<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, index) => items[Math.floor(index * step)]!);
}
