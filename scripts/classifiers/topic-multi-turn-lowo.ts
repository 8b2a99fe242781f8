/**
 * Multi-turn cases left out one writer at a time, case by case: what the classifier decided for the whole
 * conversation, for the earlier turns alone and for the last turn alone, so that a miss can be put in a kind
 * (a short follow-up that lost the conversation's topic, a change of subject dragged back to the old one, ...).
 * Writes one JSON line per multi-turn case to --out; prints accuracy per kind.
 *
 * `--quick` trains the two heads only and keeps the shipped temperatures, intent weight and threshold (one
 * training per writer instead of six): for comparing feature variants; the shipped figure comes from
 * leave-one-writer-out.ts.
 *
 *   npx tsx scripts/classifiers/topic-multi-turn-lowo.ts --out /tmp/multi.jsonl [--quick] [--writer writer-11]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TopicClassifier } from '../../src/classify/topic/classifier.js';
import { isShortFollowUp, recentUserTurns } from '../../src/classify/topic/conversation.js';
import { caseMessages, readTopicCases } from '../../src/eval/topic-cases.js';
import { tokenize } from '../../src/classify/text/tokens.js';
import { leftOutWeights } from './topic-fit.js';
import { writerFolds } from './writer-folds.js';

const { values } = parseArgs({ options: { writer: { type: 'string' }, out: { type: 'string' }, quick: { type: 'boolean' }, all: { type: 'boolean' } } });
const folds = writerFolds(values.writer);
const lines: string[] = [];
const totals = new Map<string, { right: number; cases: number }>();
const count = (kind: string, right: boolean) => {
  const total = totals.get(kind) ?? { right: 0, cases: 0 };
  total.cases += 1;
  if (right) total.right += 1;
  totals.set(kind, total);
};
for (const writer of folds.names) {
  const cases = readTopicCases(folds.casesPath(writer));
  const classifier = new TopicClassifier({ weights: leftOutWeights(folds.trainingWithout(writer), values.quick === true) });
  for (const topicCase of cases) {
    const messages = caseMessages(topicCase);
    const turns = recentUserTurns(messages, 3);
    const accepted = (topic: string) => topic === topicCase.topic || (topicCase.acceptable_topics ?? []).includes(topic);
    const full = classifier.classify(messages);
    const decided = full.topic;
    if (turns.length < 2) {
      if (values.all) count('single-turn', accepted(decided));
      continue;
    }
    const earlierResult = classifier.classifyTurns(turns.slice(0, -1));
    const aloneResult = classifier.classifyTurns(turns.slice(-1));
    const together = classifier.classifyTurns(turns);
    const earlier = earlierResult.topic;
    const alone = aloneResult.topic;
    const short = isShortFollowUp(messages);
    // Continuation: the expected topic is what the earlier turns already were about (as the model reads them).
    const kind = `${short ? 'short' : 'long'}-${accepted(earlier) ? 'continue' : 'switch'}`;
    count(kind, accepted(decided));
    count('multi-turn', accepted(decided));
    lines.push(JSON.stringify({ writer, id: topicCase.id, kind, expected: topicCase.topic, acceptable: topicCase.acceptable_topics, decided, earlier, alone, right: accepted(decided), words: turnLength(turns[turns.length - 1]!), together: together.topic, togetherCandidate: together.candidate, earlierCandidate: earlierResult.candidate, aloneCandidate: aloneResult.candidate, aloneNone: aloneResult.probabilities?.none, togetherNone: together.probabilities?.none, earlierNone: earlierResult.probabilities?.none, aloneProbabilities: aloneResult.probabilities, togetherProbabilities: together.probabilities, earlierProbabilities: earlierResult.probabilities }));
  }
  process.stderr.write(`${writer} done\n`);
}
if (values.out) writeFileSync(values.out, `${lines.join('\n')}\n`);
for (const [kind, total] of [...totals].sort()) process.stdout.write(`${kind}: ${total.right}/${total.cases} = ${(total.right / total.cases).toFixed(3)}\n`);

function turnLength(text: string): number {
  const { words, unspacedGrams } = tokenize(text.slice(0, 4000));
  return words.length + Math.ceil(unspacedGrams.length / 2);
}
