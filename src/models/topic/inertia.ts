import type { TopicSessionState } from '../../store/session-record.js';

/** An ARC topic or a user-defined route name; `none` = the default model. */
type Topic = string;

/** What the router remembers about a session between turns: part of the session record. */
export type { TopicSessionState } from '../../store/session-record.js';

export interface TopicObservation {
  /** The classifier's topic for this turn (`none` when no specialist was confident). */
  topic: Topic;
  confidence: number;
  /**
   * The turn is a short follow-up ("and in French?", "why?"): too little text to name a new subject, so it
   * never switches one specialist for another, however confident the classifier is.
   */
  shortFollowUp?: boolean;
}

export interface InertiaOptions {
  /** Consecutive confident turns a new specialist needs before it replaces the current one (1 = switch at once). */
  inertia: number;
  /** A turn at least this confident switches at once, whatever the inertia; 1 turns this off. */
  switchConfidence: number;
}

export const defaultInertiaOptions: InertiaOptions = { inertia: 2, switchConfidence: 0.85 };

export type TransitionReason =
  | 'no confident specialist'
  | 'first specialist turn'
  | 'same topic'
  | 'confident switch'
  | 'switch after building confidence'
  | 'holding current specialist'
  | 'short follow-up keeps topic';

export interface TopicTransition {
  topic: Topic;
  state: TopicSessionState;
  reason: TransitionReason;
}

/**
 * The per-session topic state machine, as a pure function. A turn with no confident specialist always goes to
 * the default model (a low-confidence turn never keeps a stale specialist); from the default model a confident
 * specialist is taken at once; between two specialists the new one must be seen on `inertia` consecutive
 * turns, or once with `switchConfidence`, while the session stays on the current one; a short follow-up never
 * switches specialists (a closing "thanks!" still ends the specialist: it classifies as `none`).
 */
export function nextTopicState(previous: TopicSessionState | undefined, observation: TopicObservation, options: InertiaOptions = defaultInertiaOptions): TopicTransition {
  const turns = (previous?.turns ?? 0) + 1;
  if (observation.topic === 'none') return { topic: 'none', state: { topic: 'none', turns }, reason: 'no confident specialist' };
  const current = previous?.topic ?? 'none';
  if (current === 'none') return { topic: observation.topic, state: { topic: observation.topic, turns }, reason: 'first specialist turn' };
  if (current === observation.topic) return { topic: current, state: { topic: current, turns }, reason: 'same topic' };
  if (observation.shortFollowUp) return { topic: current, state: { topic: current, turns }, reason: 'short follow-up keeps topic' };
  if (options.switchConfidence < 1 && observation.confidence >= options.switchConfidence) return { topic: observation.topic, state: { topic: observation.topic, turns }, reason: 'confident switch' };
  const streak = previous?.pending?.topic === observation.topic ? previous.pending.turns + 1 : 1;
  if (streak >= Math.max(1, options.inertia)) return { topic: observation.topic, state: { topic: observation.topic, turns }, reason: 'switch after building confidence' };
  return { topic: current, state: { topic: current, pending: { topic: observation.topic, turns: streak }, turns }, reason: 'holding current specialist' };
}
