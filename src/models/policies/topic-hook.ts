import type { Candidate } from '../candidate.js';
import type { PolicyContext, PolicyResult, RoutedPersona, RoutingPolicy } from './routing-policy.js';

/**
 * What the topic router (src/models/topic/, another module) plugs in: given viable candidates, the per-topic
 * order (specialist then its chain), the topic it classified and that topic's persona for this request, or
 * undefined to leave the order alone. Everything about one request is in the return value: the router is shared
 * by concurrent requests.
 */
export interface TopicRouter {
  route(
    candidates: Candidate[],
    context: PolicyContext,
  ): { candidates: Candidate[]; topic: string; reason: string; specialist?: boolean; persona?: RoutedPersona } | undefined;
  // Implemented by EngineTopicRouter in src/models/topic/topic-policy-router.ts.
}

/** The `topic` policy slot: a no-op with a clear reason until a topic router is installed. */
export function topicPolicy(router: TopicRouter | undefined): RoutingPolicy {
  return {
    specificationVersion: 'v1',
    name: 'topic',
    order(candidates: Candidate[], context: PolicyContext): PolicyResult {
      if (!router) return { candidates, reason: 'no topic router installed' };
      const routed = router.route(candidates, context);
      if (!routed) return { candidates, reason: 'topic router left the order' };
      const first = routed.candidates[0];
      // A router that returns an order has chosen a specialist unless it says otherwise.
      const ordered = first && routed.specialist !== false ? [{ ...first, source: 'topic' as const }, ...routed.candidates.slice(1)] : routed.candidates;
      return { candidates: ordered, reason: routed.reason, topic: routed.topic, ...(routed.persona ? { persona: routed.persona } : {}) };
    },
  };
}
