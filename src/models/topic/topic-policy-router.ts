import type { Candidate } from '../candidate.js';
import type { PolicyContext, RoutedPersona } from '../policies/routing-policy.js';
import type { TopicRouter } from '../policies/topic-hook.js';
import type { TopicTarget } from '../../config/topic-routing.js';
import { MemoryTopicSessions } from './inertia-store.js';
import type { TopicSessionStore } from './inertia-store.js';
import { TopicRoutingEngine } from './topic-router.js';

/**
 * The engine behind the model router's `topic` policy slot: puts the topic's target and its fallbacks first
 * (in that order, among viable candidates) and keeps the rest of the order, with the topic's persona for exactly
 * those deployments. Leaves the order alone for an explicit model, a skipped turn (reported as topic `skip`, no
 * specialist, so the signature says so), `none`, or a target with no viable candidate. Without a session id the
 * turn is classified with no inertia. Nothing about a request is kept on the instance: it serves concurrent
 * requests, and everything one request needs is in the value `route` returns.
 */
export class EngineTopicRouter implements TopicRouter {
  constructor(
    private readonly engine: TopicRoutingEngine,
    private readonly sessions: TopicSessionStore = new MemoryTopicSessions(),
  ) {}

  route(candidates: Candidate[], context: PolicyContext): ReturnType<TopicRouter['route']> {
    if (context.explicit) return undefined;
    const messages = context.turn.messages.map((message) => ({ role: message.role, content: message.text }));
    const sessionId = context.sessionId ?? context.turn.hints.sessionId;
    const decision = this.engine.decide(messages, sessionId ? this.sessions.get(sessionId) : undefined);
    if (sessionId && decision.state) this.sessions.set(sessionId, decision.state);
    if (decision.source === 'skip') return { candidates, topic: 'skip', reason: decision.reason, specialist: false };
    if (!decision.target) return undefined;
    const chain = [decision.target, ...decision.target.fallbacks];
    const preferred: Candidate[] = [];
    for (const link of chain) {
      const match = candidates.find((candidate) => !preferred.includes(candidate) && matchesTarget(candidate, link));
      if (match) preferred.push(match);
    }
    if (!preferred.length) return undefined;
    const ordered = [...preferred, ...candidates.filter((candidate) => !preferred.includes(candidate))];
    if (!decision.persona) return { candidates: ordered, topic: decision.topic, reason: decision.reason };
    const persona: RoutedPersona = { topic: decision.topic, text: decision.persona, deployments: preferred.map((candidate) => candidate.deployment.qualifiedName) };
    return { candidates: ordered, topic: decision.topic, reason: decision.reason, persona };
  }
}

function matchesTarget(candidate: Candidate, target: Pick<TopicTarget, 'model' | 'provider'>): boolean {
  const deployment = candidate.deployment;
  if (target.provider && target.provider !== deployment.providerId) return false;
  return target.model === deployment.modelId || target.model === deployment.upstreamModel || target.model === deployment.qualifiedName;
}
