/**
 * Leave one writer out (quick: heads refitted per writer, the shipped temperatures, intent weight and threshold), with
 * the same fit scored in several smaller forms, so a footprint change is judged on writers it was not fitted on:
 *
 * - `full`: the heads as trained;
 * - `abs<T>`: a feature dropped from a head when none of its weights there reaches T in absolute value;
 * - `count<K>`: a feature dropped from both heads when fewer than K of the fold's training examples have it;
 * - `int8`: every weight rounded to one of 255 steps of its row's largest absolute weight (a packed file's precision;
 *   since StackedLinearModels keeps such bytes, every variant is scored rounded, and `int8` equals `full`);
 * - combinations (`abs0.05+count3+int8`).
 *
 * `--min-count 2` also retrains each fold with features seen in fewer training examples left out before training
 * (`minFeatureCount`), scored as it is and with int8 rows.
 *
 * `--retrained-only` skips the fit with every feature (and its variants): only the `--min-count` fit is scored.
 *
 * `--without writer-47[,writer-48…]` also fits each fold without those writers (the training set before they were added) and
 * scores it as `before`. One JSON line per case and variant is appended to --out after each writer (id, writer,
 * variant, labels, decision: never the text), so a run cut short still has its finished writers;
 * `--summarize FILE` prints the aggregates of a run.
 *
 *   npx tsx scripts/classifiers/topic-prune-lowo.ts --out /tmp/prune.jsonl [--without writer-47] [--min-count 2] [--writer writer-1,writer-2]
 *   npx tsx scripts/classifiers/topic-prune-lowo.ts --summarize /tmp/prune.jsonl
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import { recentUserTurns } from '../../src/classify/topic/conversation.js';
import { topicFeatures } from '../../src/classify/topic/features.js';
import type { TopicWeightsJson } from '../../src/classify/topic/model.js';
import type { TopicTrainingExample } from '../../src/classify/topic/training-data.js';
import type { LinearModelJson } from '../../src/classify/text/linear-model.js';
import { topicMetrics } from '../../src/eval/topic-metrics.js';
import { caseMessages, readTopicCases } from '../../src/eval/topic-cases.js';
import { leftOutWeights } from './topic-fit.js';
import { writerFolds } from './writer-folds.js';

const { values } = parseArgs({ options: { writer: { type: 'string' }, out: { type: 'string' }, without: { type: 'string' }, summarize: { type: 'string' }, 'min-count': { type: 'string' }, 'retrained-only': { type: 'boolean' } } });

interface CaseOutcome {
  writer: string;
  variant: string;
  id: string;
  nonAscii: boolean;
  multiTurn: boolean;
  expected: string;
  acceptable?: string[];
  predicted: string;
}

type Transform = (weights: TopicWeightsJson, counts: ReadonlyMap<string, number>) => TopicWeightsJson;

const variants: Record<string, Transform> = {
  full: (weights) => weights,
  'abs0.5': (weights) => mapHeads(weights, (head) => dropBelow(head, 0.5)),
  count2: (weights, counts) => mapHeads(weights, (head) => dropRare(head, counts, 2)),
  count3: (weights, counts) => mapHeads(weights, (head) => dropRare(head, counts, 3)),
  int8: (weights) => mapHeads(weights, quantize),
  'count2+int8': (weights, counts) => mapHeads(weights, (head) => quantize(dropRare(head, counts, 2))),
};

if (values.summarize) {
  summarize(readFileSync(values.summarize, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CaseOutcome));
} else {
  if (!values.out) throw new Error('--out FILE is required');
  writeFileSync(values.out, '');
  const folds = writerFolds(values.writer);
  // Each example's feature names, computed once: a fold's counts are the totals less the left-out writer's.
  const everything = folds.trainingWithout('');
  const totals = new Map<string, number>();
  const namesOf = new Map<TopicTrainingExample, string[]>();
  for (const example of values['retrained-only'] ? [] : everything) {
    const names = [...topicFeatures(example.turns).keys()];
    namesOf.set(example, names);
    for (const name of names) totals.set(name, (totals.get(name) ?? 0) + 1);
  }
  for (const writer of folds.names) {
    const training = folds.trainingWithout(writer);
    const counts = new Map(totals);
    for (const example of everything) if (example.writer === writer) for (const name of namesOf.get(example) ?? []) counts.set(name, counts.get(name)! - 1);
    const rows: CaseOutcome[] = [];
    const weights = values['retrained-only'] ? undefined : leftOutWeights(training, true);
    if (weights) for (const [variant, transform] of Object.entries(variants)) {
      const changed = transform(weights, counts);
      rows.push(...score(writer, variant, changed, folds.casesPath(writer)));
      if (variant !== 'full') process.stderr.write(`  ${variant}: ${rowCount(changed)} rows of ${rowCount(weights)}\n`);
    }
    if (values['min-count']) {
      const retrained = leftOutWeights(training, true, { minFeatureCount: Number(values['min-count']) });
      rows.push(...score(writer, `trained count>=${values['min-count']}`, retrained, folds.casesPath(writer)));
      rows.push(...score(writer, `trained count>=${values['min-count']}+int8`, mapHeads(retrained, quantize), folds.casesPath(writer)));
      process.stderr.write(`  trained count>=${values['min-count']}: ${rowCount(retrained)} rows\n`);
    }
    const added = new Set((values.without ?? '').split(',').filter(Boolean));
    if (added.size && !added.has(writer)) rows.push(...score(writer, 'before', leftOutWeights(training.filter((example) => !added.has(example.writer ?? '')), true), folds.casesPath(writer)));
    appendFileSync(values.out, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
    process.stderr.write(`${writer} done\n`);
  }
  summarize(readFileSync(values.out, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CaseOutcome));
}

function score(writer: string, variant: string, weights: TopicWeightsJson, casesPath: string): CaseOutcome[] {
  const classifier = new TopicClassifier({ weights });
  return readTopicCases(casesPath).map((topicCase) => {
    const messages = caseMessages(topicCase);
    const turns = recentUserTurns(messages, 3);
    return {
      writer,
      variant,
      id: topicCase.id,
      // eslint-disable-next-line no-control-regex
      nonAscii: /[^\u0000-\u007f]/u.test(turns[turns.length - 1] ?? ''),
      multiTurn: turns.length > 1,
      expected: topicCase.topic,
      ...(topicCase.acceptable_topics ? { acceptable: topicCase.acceptable_topics } : {}),
      predicted: classifier.classify(messages).topic,
    };
  });
}

function mapHeads(weights: TopicWeightsJson, change: (head: LinearModelJson) => LinearModelJson): TopicWeightsJson {
  return { ...weights, topic: change(weights.topic), intent: change(weights.intent) };
}

function dropBelow(head: LinearModelJson, threshold: number): LinearModelJson {
  return { ...head, weights: Object.fromEntries(Object.entries(head.weights).filter(([, row]) => row.some((weight) => Math.abs(weight) >= threshold))) };
}

function dropRare(head: LinearModelJson, counts: ReadonlyMap<string, number>, minimum: number): LinearModelJson {
  return { ...head, weights: Object.fromEntries(Object.entries(head.weights).filter(([name]) => (counts.get(name) ?? 0) >= minimum)) };
}

function quantize(head: LinearModelJson): LinearModelJson {
  return {
    ...head,
    weights: Object.fromEntries(
      Object.entries(head.weights).map(([name, row]) => {
        const step = Math.max(...row.map(Math.abs)) / 127;
        return [name, row.map((weight) => (step > 0 ? Math.round(weight / step) * step : 0))];
      }),
    ),
  };
}

function rowCount(weights: TopicWeightsJson): number {
  return new Set([...Object.keys(weights.topic.weights), ...Object.keys(weights.intent.weights)]).size;
}

function figures(rows: readonly CaseOutcome[]): { cases: number; accuracy: number; nonePrecision: number; multiTurn: number } {
  const metrics = topicMetrics(rows.map((row) => ({ predicted: row.predicted, topic: row.expected, acceptable: row.acceptable })));
  const multi = rows.filter((row) => row.multiTurn);
  const right = multi.filter((row) => row.predicted === row.expected || row.acceptable?.includes(row.predicted)).length;
  return { cases: rows.length, accuracy: metrics.accuracy, nonePrecision: metrics.none_precision, multiTurn: round(right / Math.max(1, multi.length)) };
}

function summarize(rows: readonly CaseOutcome[]): void {
  const names = [...new Set(rows.map((row) => row.variant))];
  // Compare variants on the writers every variant has (a `before` fit does not exist for the writer it leaves out).
  const writers = [...new Set(rows.map((row) => row.writer))].filter((writer) => names.every((variant) => rows.some((row) => row.writer === writer && row.variant === variant)));
  const common = [...new Set(rows.map((row) => row.writer))].filter((writer) => rows.some((row) => row.writer === writer && row.variant === 'full'));
  process.stdout.write(`${common.length} writers scored; ${writers.length} with every variant\n`);
  for (const variant of names) {
    for (const [label, set] of [['all variants', writers], ['all writers', common]] as const) {
      const mine = rows.filter((row) => row.variant === variant && set.includes(row.writer));
      if (!mine.length) continue;
      const perWriter = set.map((writer) => figures(mine.filter((row) => row.writer === writer))).filter((item) => item.cases > 0);
      const pooled = figures(mine);
      const nonAscii = figures(mine.filter((row) => row.nonAscii));
      const mean = (pick: (item: ReturnType<typeof figures>) => number) => round(perWriter.reduce((sum, item) => sum + pick(item), 0) / perWriter.length);
      process.stdout.write(
        `${variant.padEnd(22)} ${label.padEnd(12)} writers ${perWriter.length} mean ${mean((item) => item.accuracy).toFixed(4)} / ${mean((item) => item.nonePrecision).toFixed(4)} (worst none P ${Math.min(...perWriter.map((item) => item.nonePrecision)).toFixed(3)}) pooled ${pooled.accuracy.toFixed(4)} / ${pooled.nonePrecision.toFixed(4)} multi-turn ${pooled.multiTurn.toFixed(3)} non-ASCII ${nonAscii.accuracy.toFixed(4)} (${nonAscii.cases})\n`,
      );
    }
  }
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
