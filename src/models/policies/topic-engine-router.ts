import type { Candidate } from '../candidate.js';
import type { PolicyContext } from './routing-policy.js';
import type { TopicRouter } from './topic-hook.js';

interface ModelTarget {
  model: string;
  provider?: string | undefined;
}

/** What the topic module's engine (src/models/topic/topic-router.ts, TopicRoutingEngine) offers, structurally. */
export interface TopicDecider<State> {
  decide(
    messages: { role: string; content?: unknown }[],
    previous: State | undefined,
  ): { topic: string; target?: (ModelTarget & { fallbacks: ModelTarget[] }) | undefined; state: State | undefined; reason: string };
}

function matches(candidate: Candidate, target: ModelTarget): boolean {
  const deployment = candidate.deployment;
  if (target.provider !== undefined && deployment.providerId !== target.provider) return false;
  return deployment.modelId === target.model || deployment.qualifiedName === target.model || deployment.upstreamModel === target.model;
}

/**
 * Adapts the topic engine to the router's `topic` policy: the engine classifies the turn (with per-session
 * inertia, kept here with a TTL), and its specialist then the specialist's fallbacks move to the front of the
 * viable candidates. Targets that are switched off or filtered out are simply not there to move, so the next
 * one leads. The other candidates stay behind as the global chain.
 */
export function topicEngineRouter<State>(engine: TopicDecider<State>, options: { ttlMs: number; maxSessions: number }): TopicRouter {
  const states = new Map<string, { state: State | undefined; expiresAt: number }>();
  const remember = (sessionId: string, state: State | undefined) => {
    states.delete(sessionId);
    states.set(sessionId, { state, expiresAt: Date.now() + options.ttlMs });
    while (states.size > options.maxSessions) {
      const oldest = states.keys().next();
      if (oldest.done) break;
      states.delete(oldest.value);
    }
  };
  return {
    route(candidates: Candidate[], context: PolicyContext) {
      const sessionId = context.sessionId;
      const saved = sessionId === undefined ? undefined : states.get(sessionId);
      const previous = saved && saved.expiresAt > Date.now() ? saved.state : undefined;
      const messages = context.turn.messages.map((message) => ({ role: message.role, content: message.text }));
      const decision = engine.decide(messages, previous);
      if (sessionId !== undefined) remember(sessionId, decision.state);
      const target = decision.target;
      if (!target) return { candidates, topic: decision.topic, reason: `${decision.reason}; no specialist for ${decision.topic}` };
      const chain = [target, ...target.fallbacks];
      const moved: Candidate[] = [];
      for (const step of chain) {
        for (const candidate of candidates) if (matches(candidate, step) && !moved.includes(candidate)) moved.push(candidate);
      }
      if (moved.length === 0) {
        return { candidates, topic: decision.topic, reason: `${decision.reason}; none of ${chain.map((step) => step.model).join(', ')} is available` };
      }
      const rest = candidates.filter((candidate) => !moved.includes(candidate));
      const lead = moved[0]?.deployment.qualifiedName ?? '';
      return { candidates: [...moved, ...rest], topic: decision.topic, reason: `${decision.reason}; specialist chain led by ${lead}`, specialist: true };
    },
  };
}
