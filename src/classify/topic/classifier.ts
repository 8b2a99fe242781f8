import { readFileSync } from 'node:fs';
import { round } from '../text/linear-model.js';
import type { FeatureContribution } from '../text/linear-model.js';
import { packageDataPath } from '../text/package-data.js';
import { tokenize } from '../text/tokens.js';
import type { ChatMessageLike } from './conversation.js';
import { isShortFollowUp, recentUserTurns } from './conversation.js';
import { keywordTopic } from './keyword-classifier.js';
import { decideTopic, LearnedTopicModel } from './learned-classifier.js';
import type { TopicWeightsJson } from './model.js';
import type { PackedTopicWeights } from './packed-weights.js';
import { decodeTopicWeights, unpackTopicWeights } from './packed-weights.js';
import type { Intent, Topic } from './taxonomy.js';
import { topics } from './taxonomy.js';

export const topicModes = ['keyword', 'learned', 'hybrid'] as const;
export type TopicMode = (typeof topicModes)[number];

export interface TopicClassification {
  /** `none` when no specialist is confident enough. */
  topic: Topic;
  /** Calibrated probability of `topic` (for `none`: of no specialist being needed). */
  confidence: number;
  /** The best specialist topic and its probability, even when it fell short of the threshold. */
  candidate: { topic: Topic; confidence: number };
  intent: Intent;
  intentConfidence: number;
  /** Which part decided: the learned model, the keyword lexicon, or (hybrid with an LLM) the LLM. */
  decidedBy: 'learned' | 'keyword' | 'llm';
  /** The features that decided, strongest first. */
  features: FeatureContribution[];
  probabilities?: Partial<Record<Topic, number>>;
}

export interface TopicClassifierOptions {
  mode?: TopicMode;
  /** Overrides the trained threshold (data/topics/weights.bin `minConfidence`). */
  minConfidence?: number;
  /** How many recent user turns to read (the last one is classified; earlier ones are context). */
  contextTurns?: number;
  weights?: TopicWeightsJson | PackedTopicWeights;
  /**
   * Later turns (default true): the topic the earlier turns and the last turn alone agree on wins, and a
   * follow-up that is short (≤ 5 words) or weak (≤ 8 words, its own best specialist below 0.4) keeps the
   * specialist of the turns before it rather than switching to another; `none` ("thanks!") still ends it.
   * Leaving out one writer at a time, multi-turn accuracy 0.860 → 0.891 (the ≤ 5-word rule alone, earlier:
   * 0.66/0.60/0.71 → 0.73/0.68/0.73).
   */
  followUpInertia?: boolean;
}

/**
 * Classifies the topic of the last user turn in the context of the previous ones. `learned` (default) uses
 * the shipped logistic-regression heads; `keyword` uses only the lexicon; `hybrid` uses the learned model and,
 * when it finds no confident specialist, accepts a keyword decision backed by at least two distinct terms.
 * All modes are synchronous and local (well under a millisecond); an LLM second opinion is layered on top by
 * `classifyTopicWithLlm`.
 */
export class TopicClassifier {
  readonly mode: TopicMode;
  readonly minConfidence: number;
  private readonly contextTurns: number;
  private readonly learned: LearnedTopicModel | undefined;
  private readonly followUpInertia: boolean;

  constructor(options: TopicClassifierOptions = {}) {
    this.mode = options.mode ?? 'learned';
    this.contextTurns = options.contextTurns ?? 3;
    this.followUpInertia = options.followUpInertia ?? true;
    this.learned = this.mode === 'keyword' ? undefined : options.weights ? new LearnedTopicModel(options.weights) : shippedTopicModel();
    this.minConfidence = options.minConfidence ?? this.learned?.minConfidence ?? 0.5;
  }

  /**
   * Runs a few decisions on text of its own (every feature path: code, maths, other scripts, a follow-up) so
   * that the tables are read and the code compiled before the first real request, not during it. The gateway
   * calls this at start-up; the eval before timing.
   */
  warmUp(rounds = 20): void {
    for (let round = 0; round < rounds; round += 1) for (const turns of warmUpConversations) this.classifyTurns(turns);
  }

  classify(messages: readonly ChatMessageLike[]): TopicClassification {
    const turns = recentUserTurns(messages, this.contextTurns);
    const result = this.classifyTurns(turns);
    if (!this.followUpInertia || turns.length < 2) return result;
    // The two extra readings are only compared, so they skip the explanation (keepPrevious shows `result`'s).
    const previous = this.classifyTurns(turns.slice(0, -1), { explain: false });
    if (previous.topic === result.topic) return result;
    const alone = this.classifyTurns(turns.slice(-1), { explain: false });
    const keepPrevious = { ...previous, intent: result.intent, intentConfidence: result.intentConfidence, features: result.features };
    // The conversation so far and the new turn read on its own agree (both `none`, or one specialist): that is
    // the answer, even where the mixed features of both drift to a third topic (a recipe chat's "can I use oil
    // instead?" is still no specialist's).
    if (previous.topic === alone.topic) return keepPrevious;
    if (result.topic === 'none' || previous.topic === 'none') return result;
    // A follow-up ("and in French?", "why?", "something less scary, I'm a wimp") does not name a new subject: it
    // keeps the specialist the conversation had, as the routing engine's inertia does, when it is short or when,
    // read alone, it points nowhere with confidence. A closing "thanks!" still ends it (`none` above).
    const weakFollowUp = turnLength(turns[turns.length - 1]!) <= weakFollowUpWords && alone.candidate.confidence < weakFollowUpConfidence;
    return isShortFollowUp(messages) || weakFollowUp ? keepPrevious : result;
  }

  /** `explain: false` leaves `features` empty in learned mode (cheaper; for readings that are only compared). */
  classifyTurns(userTurns: readonly string[], options: { explain?: boolean } = {}): TopicClassification {
    if (!this.learned) return fromKeywords(userTurns);
    const scores = this.learned.score(userTurns, options.explain ?? true);
    const ordered = topics.map((topic) => scores.probabilities[topic] ?? 0);
    const decision = decideTopic(ordered, this.minConfidence);
    const candidate = decideTopic(ordered, 0);
    const learnedResult: TopicClassification = {
      topic: decision.topic,
      confidence: round(decision.confidence, 4),
      candidate: { topic: candidate.topic, confidence: round(candidate.confidence, 4) },
      intent: scores.intent,
      intentConfidence: scores.intentConfidence,
      decidedBy: 'learned',
      features: scores.features,
      probabilities: scores.probabilities,
    };
    if (this.mode !== 'hybrid' || decision.topic !== 'none') return learnedResult;
    const keyword = keywordTopic(userTurns);
    const distinctTerms = keyword.features.filter((item) => item.feature.startsWith('kw:')).length;
    if (keyword.topic === 'none' || distinctTerms < 2) return learnedResult;
    return { ...learnedResult, topic: keyword.topic, confidence: keyword.confidence, decidedBy: 'keyword', features: keyword.features };
  }
}

/** Synthetic turns for `warmUp` (written for it; not from any corpus or eval set). */
const warmUpConversations: readonly (readonly string[])[] = [
  ['hello there!! 👋'],
  ['my function returns undefined when the array is empty: `const x = items[0].id;`'],
  ['solve 3x + 4 = 19 and show the steps', 'and if it were 3x - 4?'],
  ['请帮我把这段话翻译成英文'],
  ['ช่วยสรุปข่าววันนี้หน่อย'],
  ['Could you draft a short, polite note to my landlord about the broken heater? Thanks so much!'],
];

/**
 * A later turn of up to this many words whose own best specialist is below `weakFollowUpConfidence` keeps the
 * conversation's specialist. Leaving out one writer at a time (12 writers, 916 multi-turn cases), with the
 * agreement rule above: 0.860 -> 0.891; the pair (8 words, 0.4) is what 9 of the 12 leave-one-out choices of the
 * pair picked, and chosen that way, writer by writer on the other eleven, it gave 0.882.
 */
const weakFollowUpWords = 8;
const weakFollowUpConfidence = 0.4;

/** Words of a turn as the features count them (Chinese/Thai: two characters a word). */
function turnLength(text: string): number {
  const { words, unspacedGrams } = tokenize(text.slice(0, 4000));
  return words.length + Math.ceil(unspacedGrams.length / 2);
}

function fromKeywords(userTurns: readonly string[]): TopicClassification {
  const keyword = keywordTopic(userTurns);
  return {
    topic: keyword.topic,
    confidence: keyword.confidence,
    candidate: { topic: keyword.topic, confidence: keyword.confidence },
    intent: keyword.intent,
    intentConfidence: keyword.features.length ? 1 : 0,
    decidedBy: 'keyword',
    features: keyword.features,
  };
}

/** The shipped model file (data/topics/weights.bin, packed-weights.ts) as the runtime reads it. */
export function shippedPackedTopicWeights(): PackedTopicWeights {
  return decodeTopicWeights(readFileSync(packageDataPath('data/topics/weights.bin')));
}

/** The shipped weights as JSON (read on each call, for scripts: the classifiers share `shippedTopicModel` instead). */
export function shippedTopicWeights(): TopicWeightsJson {
  return unpackTopicWeights(shippedPackedTopicWeights());
}

let shipped: LearnedTopicModel | undefined;

/**
 * The shipped model, built once and shared by every classifier (the topic router and the difficulty estimator's
 * chit-chat check each make one). Only its weight table is kept, not the parsed JSON: ~11 MB of heap instead of
 * ~40 MB.
 */
function shippedTopicModel(): LearnedTopicModel {
  shipped ??= new LearnedTopicModel(shippedPackedTopicWeights());
  return shipped;
}
