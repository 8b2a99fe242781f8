/**
 * Per-decision latency of the three classifiers, separating the work from scheduler noise: each decision runs
 * five times; `p99_single_ms` is the p99 of the first run, `p99_best_of_5_ms` the p99 of each decision's fastest
 * run (what the decision costs when the process is not preempted).
 *
 *   npx tsx scripts/classifiers/bench-decisions.ts
 */
import { performance } from 'node:perf_hooks';
import { shippedDifficultyEstimator } from '../../src/classify/difficulty/estimate.js';
import { RouteClassifier } from '../../src/classify/routes/route-classifier.js';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import { readDifficultyCases } from '../../src/eval/difficulty-cases.js';
import { caseMessages, readRouteRows, readTopicCases } from '../../src/eval/topic-cases.js';
import { percentileMs } from '../../src/eval/timing.js';

function bench(name: string, inputs: readonly unknown[], decide: (input: unknown) => unknown): void {
  for (const input of inputs.slice(0, 100)) decide(input);
  const single: number[] = [];
  const best: number[] = [];
  for (const input of inputs) {
    let fastest = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 5; run += 1) {
      const started = performance.now();
      decide(input);
      const elapsed = performance.now() - started;
      if (run === 0) single.push(elapsed);
      fastest = Math.min(fastest, elapsed);
    }
    best.push(fastest);
  }
  process.stdout.write(`${JSON.stringify({ name, decisions: inputs.length, p50_ms: percentileMs(best, 50), p99_best_of_5_ms: percentileMs(best, 99), p99_single_ms: percentileMs(single, 99) })}\n`);
}

const topicClassifier = new TopicClassifier();
bench('topic (learned)', readTopicCases('data/topics/cases.dev.jsonl').map(caseMessages), (messages) => topicClassifier.classify(messages as ReturnType<typeof caseMessages>));

const rows = readRouteRows('../shared/corpora/external/clinc150_domains.jsonl');
const byDomain = new Map<string, string[]>();
for (const row of rows) if (row.split === 'train' && row.domain) byDomain.set(row.domain, [...(byDomain.get(row.domain) ?? []), row.text]);
const routes = new RouteClassifier([...byDomain].map(([name, utterances]) => ({ name, utterances })), { negatives: rows.filter((row) => row.split === 'oos_train').map((row) => row.text) });
bench('user routes (CLINC, 10 routes, 15k examples)', rows.filter((row) => row.split === 'val' || row.split === 'oos_val').map((row) => row.text), (text) => routes.match(text as string));

const estimator = shippedDifficultyEstimator();
bench('difficulty', readDifficultyCases('../shared/corpora/external/routellm_strong_weak.jsonl').filter((_, index) => index % 5 === 0).map((row) => row.prompt), (prompt) => estimator.estimate(prompt as string));
