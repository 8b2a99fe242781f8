/**
 * The baseline the issue names for user-defined routes: a word unigram+bigram multinomial naive Bayes over the
 * CLINC150 domains, rejecting out-of-scope rows by a threshold on its top posterior. Prints route accuracy and
 * out-of-scope rejection across thresholds, to compare with `eval topics --routes-from`.
 *
 *   npx tsx scripts/classifiers/routes-baseline.ts [../shared/corpora/external/clinc150_domains.jsonl]
 */
import { tokenize } from '../../src/classify/text/tokens.js';
import { readRouteRows } from '../../src/eval/topic-cases.js';

const rows = readRouteRows(process.argv[2] ?? '../shared/corpora/external/clinc150_domains.jsonl');
const grams = (text: string) => {
  const { words } = tokenize(text);
  return [...words, ...words.slice(1).map((word, index) => `${words[index]}_${word}`)];
};
const train = rows.filter((row) => row.split === 'train' && row.domain);
const domains = [...new Set(train.map((row) => row.domain!))].sort();
const counts = domains.map(() => new Map<string, number>());
const totals = domains.map(() => 0);
const vocabulary = new Set<string>();
for (const row of train) {
  const index = domains.indexOf(row.domain!);
  for (const gram of grams(row.text)) {
    counts[index]!.set(gram, (counts[index]!.get(gram) ?? 0) + 1);
    totals[index]! += 1;
    vocabulary.add(gram);
  }
}
const prior = domains.map((domain) => Math.log(train.filter((row) => row.domain === domain).length / train.length));
const alpha = 0.1;
const posterior = (text: string) => {
  const logs = domains.map((_, index) => prior[index]! + grams(text).reduce((sum, gram) => sum + Math.log(((counts[index]!.get(gram) ?? 0) + alpha) / (totals[index]! + alpha * vocabulary.size)), 0));
  const maximum = Math.max(...logs);
  const exponentials = logs.map((value) => Math.exp(value - maximum));
  const total = exponentials.reduce((sum, value) => sum + value, 0);
  const best = logs.indexOf(maximum);
  return { domain: domains[best]!, probability: exponentials[best]! / total };
};
const scored = rows.filter((row) => row.split !== 'train' && row.split !== 'oos_train').map((row) => ({ row, ...posterior(row.text) }));
for (const threshold of [0, 0.9, 0.99, 0.999, 0.9999, 0.99999]) {
  const inScope = scored.filter((item) => item.row.domain);
  const outOfScope = scored.filter((item) => !item.row.domain);
  const accuracy = inScope.filter((item) => item.probability >= threshold && item.domain === item.row.domain).length / inScope.length;
  const rejection = outOfScope.filter((item) => item.probability < threshold).length / outOfScope.length;
  process.stdout.write(`threshold ${threshold}: route_accuracy ${accuracy.toFixed(4)} oos_rejection ${rejection.toFixed(4)}\n`);
}
