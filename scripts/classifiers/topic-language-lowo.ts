/**
 * Leave one writer out, with the figures split by the script of the turn being classified: the same fits as
 * leave-one-writer-out.ts (or, with `--quick`, the two heads only with the shipped temperatures, intent weight
 * and threshold), scored case by case so that accuracy, none precision and multi-turn accuracy can be read for
 * the cases in English-like ASCII text and for those in other scripts or with accented letters (`non-ascii`).
 * Writes one JSON line per case to --out (id, writer, slice, labels, decision: never the text) and prints the
 * aggregates; `--summarize a.jsonl,b.jsonl` only prints the aggregates of earlier runs (two halves of the writers
 * run in parallel, for example).
 *
 *   npx tsx scripts/classifiers/topic-language-lowo.ts --out /tmp/full.jsonl [--quick] [--writer writer-1,writer-2]
 *   npx tsx scripts/classifiers/topic-language-lowo.ts --summarize /tmp/a.jsonl,/tmp/b.jsonl
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import { recentUserTurns } from '../../src/classify/topic/conversation.js';
import { topicMetrics } from '../../src/eval/topic-metrics.js';
import { caseMessages, readTopicCases } from '../../src/eval/topic-cases.js';
import { leftOutWeights } from './topic-fit.js';
import { writerFolds } from './writer-folds.js';

const { values } = parseArgs({ options: { writer: { type: 'string' }, out: { type: 'string' }, quick: { type: 'boolean' }, summarize: { type: 'string' } } });

interface CaseOutcome {
  writer: string;
  id: string;
  slice: string;
  script: string;
  multiTurn: boolean;
  expected: string;
  acceptable?: string[];
  predicted: string;
  confidence: number;
  candidate: number;
}

if (values.summarize) {
  const rows = values.summarize.split(',').flatMap((path) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CaseOutcome));
  summarize(rows);
} else {
  const folds = writerFolds(values.writer);
  const rows: CaseOutcome[] = [];
  for (const writer of folds.names) {
    const weights = leftOutWeights(folds.trainingWithout(writer), values.quick === true);
    const classifier = new TopicClassifier({ weights });
    for (const topicCase of readTopicCases(folds.casesPath(writer))) {
      const messages = caseMessages(topicCase);
      const turns = recentUserTurns(messages, 3);
      const result = classifier.classify(messages);
      const script = scriptOf(turns[turns.length - 1] ?? '');
      rows.push({
        writer,
        id: topicCase.id,
        slice: script === 'ascii' ? 'ascii' : 'non-ascii',
        script,
        multiTurn: turns.length > 1,
        expected: topicCase.topic,
        ...(topicCase.acceptable_topics ? { acceptable: topicCase.acceptable_topics } : {}),
        predicted: result.topic,
        confidence: result.confidence,
        candidate: result.candidate.confidence,
      });
    }
    process.stderr.write(`${writer} done (min confidence ${weights.minConfidence})\n`);
  }
  if (values.out) writeFileSync(values.out, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
  summarize(rows);
}

/** The script of a turn: `ascii` when it has no letter outside ASCII, else its most frequent non-ASCII script. */
function scriptOf(text: string): string {
  const counts = new Map<string, number>();
  for (const character of text) {
    if (!/\p{L}/u.test(character) || character.charCodeAt(0) < 128) continue;
    const script = /\p{Script=Latin}/u.test(character)
      ? 'latin'
      : /\p{Script=Cyrillic}/u.test(character)
        ? 'cyrillic'
        : /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(character)
          ? 'cjk'
          : /\p{Script=Hangul}/u.test(character)
            ? 'hangul'
            : /\p{Script=Arabic}/u.test(character)
              ? 'arabic'
              : /\p{Script=Thai}/u.test(character)
                ? 'thai'
                : /\p{Script=Devanagari}/u.test(character)
                  ? 'devanagari'
                  : 'other';
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  if (!counts.size) return 'ascii';
  return [...counts].sort((left, right) => right[1] - left[1])[0]![0];
}

function figures(rows: readonly CaseOutcome[]): Record<string, number> {
  const metrics = topicMetrics(rows.map((row) => ({ predicted: row.predicted, topic: row.expected, acceptable: row.acceptable })));
  const multi = rows.filter((row) => row.multiTurn);
  const multiRight = multi.filter((row) => row.predicted === row.expected || row.acceptable?.includes(row.predicted)).length;
  const noneCases = rows.filter((row) => row.expected === 'none');
  const topicCases = rows.filter((row) => row.expected !== 'none');
  const right = (row: CaseOutcome) => row.predicted === row.expected || (row.acceptable ?? []).includes(row.predicted);
  return {
    cases: rows.length,
    accuracy: metrics.accuracy,
    none_precision: metrics.none_precision,
    none_recall: metrics.none_recall,
    topic_accuracy: round(topicCases.filter(right).length / Math.max(1, topicCases.length)),
    none_cases: noneCases.length,
    multi_turn: multi.length,
    multi_turn_accuracy: round(multiRight / Math.max(1, multi.length)),
  };
}

function summarize(rows: readonly CaseOutcome[]): void {
  const writers = [...new Set(rows.map((row) => row.writer))];
  const perWriter = writers.map((writer) => ({ writer, figures: figures(rows.filter((row) => row.writer === writer)) }));
  const mean = (key: string) => round(perWriter.reduce((sum, item) => sum + item.figures[key]!, 0) / perWriter.length);
  process.stdout.write(`per writer: ${perWriter.map((item) => `${item.writer.replace('writer-', 'w')} ${item.figures.accuracy!.toFixed(3)}/${item.figures.none_precision!.toFixed(3)}`).join('  ')}\n`);
  process.stdout.write(`mean of writers: accuracy ${mean('accuracy')} none precision ${mean('none_precision')} (worst ${Math.min(...perWriter.map((item) => item.figures.none_precision!)).toFixed(3)}) multi-turn ${mean('multi_turn_accuracy')}\n`);
  process.stdout.write(`pooled: ${JSON.stringify(figures(rows))}\n`);
  for (const slice of ['ascii', 'non-ascii']) process.stdout.write(`${slice}: ${JSON.stringify(figures(rows.filter((row) => row.slice === slice)))}\n`);
  const scripts = [...new Set(rows.map((row) => row.script))].sort();
  for (const script of scripts) {
    const part = rows.filter((row) => row.script === script);
    const item = figures(part);
    process.stdout.write(`  script ${script}: ${item.cases} cases, accuracy ${item.accuracy}, none recall ${item.none_recall} (${item.none_cases}), topic accuracy ${item.topic_accuracy}\n`);
  }
  for (const slice of ['ascii', 'non-ascii']) {
    const confusions: Record<string, number> = {};
    for (const row of rows.filter((item) => item.slice === slice)) {
      if (row.predicted === row.expected || row.acceptable?.includes(row.predicted)) continue;
      const key = `${row.expected}→${row.predicted}`;
      confusions[key] = (confusions[key] ?? 0) + 1;
    }
    process.stdout.write(`${slice} confusions: ${JSON.stringify(Object.fromEntries(Object.entries(confusions).sort((left, right) => right[1] - left[1])))}\n`);
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
