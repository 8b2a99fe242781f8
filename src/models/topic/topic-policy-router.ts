import type { Candidate } from '../candidate.js';
import type { PolicyContext } from '../policies/routing-policy.js';
import type { TopicRouter } from '../policies/topic-hook.js';
import type { TopicTarget } from './config.js';
import { MemoryTopicSessions } from './inertia-store.js';
import type { TopicSessionStore } from './inertia-store.js';
import type { TopicRouteDecision } from './topic-router.js';
import { TopicRoutingEngine } from './topic-router.js';

/**
 * The engine behind the model router's `topic` policy slot: puts the topic's target and its fallbacks first
 * (in that order, among viable candidates) and keeps the rest of the order. Leaves the order alone for an
 * explicit model, a skipped turn, `none`, or a target with no viable candidate. Without a session id the turn
 * is classified with no inertia.
 */
export class EngineTopicRouter implements TopicRouter {
  /** The last decision, for the caller that renders the signature and applies the persona. */
  lastDecision: TopicRouteDecision | undefined;

  constructor(
    private readonly engine: TopicRoutingEngine,
    private readonly sessions: TopicSessionStore = new MemoryTopicSessions(),
  ) {}

  route(candidates: Candidate[], context: PolicyContext): { candidates: Candidate[]; topic: string; reason: string } | undefined {
    if (context.explicit) return undefined;
    const messages = context.turn.messages.map((message) => ({ role: message.role, content: message.text }));
    const sessionId = context.sessionId ?? context.turn.hints.sessionId;
    const decision = this.engine.decide(messages, sessionId ? this.sessions.get(sessionId) : undefined);
    this.lastDecision = decision;
    if (sessionId && decision.state) this.sessions.set(sessionId, decision.state);
    if (!decision.target) return undefined;
    const chain = [decision.target, ...decision.target.fallbacks];
    const preferred: Candidate[] = [];
    for (const link of chain) {
      const match = candidates.find((candidate) => !preferred.includes(candidate) && matchesTarget(candidate, link));
      if (match) preferred.push(match);
    }
    if (!preferred.length) return undefined;
    return { candidates: [...preferred, ...candidates.filter((candidate) => !preferred.includes(candidate))], topic: decision.topic, reason: decision.reason };
  }
}

function matchesTarget(candidate: Candidate, target: Pick<TopicTarget, 'model' | 'provider'>): boolean {
  const deployment = candidate.deployment;
  if (target.provider && target.provider !== deployment.providerId) return false;
  return target.model === deployment.modelId || target.model === deployment.upstreamModel || target.model === deployment.qualifiedName;
}
