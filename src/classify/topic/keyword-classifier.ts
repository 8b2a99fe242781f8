import { round } from '../text/linear-model.js';
import type { FeatureContribution } from '../text/linear-model.js';
import { intentMatcher, subjectMatcher } from './lexicon-matchers.js';
import type { Intent, Topic } from './taxonomy.js';
import { intents } from './taxonomy.js';

/** What an intent implies about the topic when the subject words alone tie (ARC's "action first"). */
const intentTopicBias: Partial<Record<Intent, Topic>> = { technical: 'software_it', creative: 'writing_language' };

export interface KeywordScores {
  topic: Topic;
  confidence: number;
  intent: Intent;
  features: FeatureContribution[];
}

/**
 * The deterministic keyword mode: count the distinct lexicon terms of each topic in the current turn (earlier
 * turns count half), add one for the topic the intent points to, and take the best topic when it clearly leads.
 * Confidence is the leader's share of all evidence plus one pseudo-count for "no specialist".
 */
export function keywordTopic(userTurns: readonly string[]): KeywordScores {
  const current = userTurns[userTurns.length - 1] ?? '';
  const scores = new Map<Topic, number>();
  const evidence: FeatureContribution[] = [];
  const add = (topic: Topic, amount: number, feature: string): void => {
    scores.set(topic, (scores.get(topic) ?? 0) + amount);
    evidence.push({ feature, weight: amount });
  };
  for (const [topic, terms] of subjectMatcher().match(current)) for (const term of terms) add(topic, 1, `kw:${topic}:${term}`);
  for (const turn of userTurns.slice(0, -1).slice(-2)) for (const [topic, terms] of subjectMatcher().match(turn)) add(topic, 0.5 * Math.min(terms.length, 2), `ctx:kw:${topic}`);

  const intentCounts = intentMatcher().match(current);
  let intent: Intent = 'conversational';
  let intentCount = 0;
  for (const candidate of intents) {
    const count = intentCounts.get(candidate)?.length ?? 0;
    if (count > intentCount) {
      intent = candidate;
      intentCount = count;
    }
  }
  const biased = intentTopicBias[intent];
  if (biased && intentCount > 0) add(biased, 1, `intent:${intent}`);

  const ranked = [...scores].sort((left, right) => right[1] - left[1]);
  const total = ranked.reduce((sum, [, score]) => sum + score, 0);
  const [leader, second] = ranked;
  if (!leader || leader[1] < 1 || (second && second[1] === leader[1])) return { topic: 'none', confidence: round(1 / (1 + total), 4), intent, features: [] };
  return {
    topic: leader[0],
    confidence: round(leader[1] / (total + 1), 4),
    intent,
    features: evidence.filter((item) => item.feature.includes(leader[0]) || item.feature === `intent:${intent}`).slice(0, 6),
  };
}
