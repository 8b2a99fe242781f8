/**
 * Which number should decide rejection, and with which training settings: the shipped route model's features
 * and recipe, trained on CLINC150's train rows at 10/30/all examples per route, and several rejection scores
 * (probability margin over "no route" as shipped, max probability, logit margin, max logit, log-sum-exp of the
 * routes minus "no route"), each judged by route accuracy at the threshold rejecting 80% of the oos_val rows (an
 * oracle threshold, only to compare how well each separates in-scope from out-of-scope requests).
 *
 *   SIZES=10,30,all VARIANTS='{"default":{},"l2":{"l2":3e-5},"negatives":{"negativeWeight":15}}' \
 *     npx tsx scripts/classifiers/routes-scores.ts
 */
import { utteranceFeatures } from '../../src/classify/routes/features.js';
import { LinearModel } from '../../src/classify/text/linear-model.js';
import type { TrainingExample } from '../../src/classify/text/train-linear-model.js';
import { trainLinearModel } from '../../src/classify/text/train-linear-model.js';
import { readRouteRows } from '../../src/eval/topic-cases.js';
import { type RouteDecision, oracleAccuracy } from './routes-oracle-judge.js';

const rows = readRouteRows('../shared/corpora/external/clinc150_domains.jsonl');
const domains = [...new Set(rows.filter((row) => row.split === 'train' && row.domain).map((row) => row.domain!))].sort();
const negatives = rows.filter((row) => row.split === 'oos_train').map((row) => row.text);
const scored = rows.filter((row) => row.split !== 'train' && row.split !== 'oos_train');
const scoredFeatures = scored.map((row) => utteranceFeatures(row.text));
function evenlySpaced<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, index) => items[Math.floor(index * step)]!);
}
function judge(name: string, decisions: RouteDecision[]): string {
  return `${name.padEnd(30)} acc@oos0.80 ${oracleAccuracy(decisions, scored, domains).atRejection.toFixed(4)}`;
}
const variants: Record<string, { negativeWeight?: number; epochs?: number; l2?: number }> = JSON.parse(process.env.VARIANTS ?? '{"default":{}}');
for (const perRoute of (process.env.SIZES ?? '10,30,all').split(',').map((size) => (size === 'all' ? undefined : Number(size)))) {
  const byDomain = domains.map((domain) => {
    const texts = rows.filter((row) => row.split === 'train' && row.domain === domain).map((row) => row.text);
    return perRoute === undefined ? texts : evenlySpaced(texts, perRoute);
  });
  const lines: string[] = [];
  for (const [variant, options] of Object.entries(variants)) {
    const examples: TrainingExample[] = byDomain.flatMap((texts, label) => texts.map((text) => ({ features: utteranceFeatures(text), label })));
    const averageRouteSize = examples.length / domains.length;
    const negativeWeight = options.negativeWeight ?? Math.max(0.2, Math.min(5, averageRouteSize / negatives.length));
    for (const text of negatives) examples.push({ features: utteranceFeatures(text), label: domains.length, weight: negativeWeight });
    const epochs = options.epochs ?? Math.max(10, Math.min(40, Math.ceil(120_000 / examples.length)));
    const model = new LinearModel(trainLinearModel(examples, { classes: [...domains, '<none>'], epochs, learningRate: 0.3, l2: options.l2 ?? 1e-4, seed: 3, pruneBelow: 0 }));
    const predictions = scoredFeatures.map((features) => model.predict(features));
    const bestOf = (values: readonly number[]) => values.slice(0, domains.length).reduce((best, value, index, list) => (value > list[best]! ? index : best), 0);
    const none = domains.length;
    lines.push(judge(`${variant} prob margin`, predictions.map(({ probabilities }) => { const best = bestOf(probabilities); return { best, score: probabilities[best]! - probabilities[none]! }; })));
    lines.push(judge(`${variant} max prob`, predictions.map(({ probabilities }) => { const best = bestOf(probabilities); return { best, score: probabilities[best]! }; })));
    lines.push(judge(`${variant} logit margin`, predictions.map(({ logits }) => { const best = bestOf(logits); return { best, score: logits[best]! - logits[none]! }; })));
    lines.push(judge(`${variant} max logit`, predictions.map(({ logits }) => { const best = bestOf(logits); return { best, score: logits[best]! }; })));
    lines.push(judge(`${variant} logsumexp routes - none`, predictions.map(({ logits }) => { const best = bestOf(logits); const routes = logits.slice(0, none); const maximum = Math.max(...routes); return { best, score: maximum + Math.log(routes.reduce((sum, value) => sum + Math.exp(value - maximum), 0)) - logits[none]! }; })));
  }
  process.stdout.write(`\n## ${perRoute ?? 'all'}\n${lines.join('\n')}\n`);
}
