import type { Candidate } from '../candidate.js';
import type { SessionAffinityStore } from '../affinity/session-affinity.js';
import type { PolicyContext, PolicyResult, RoutingPolicy } from './routing-policy.js';

/**
 * Session affinity: the deployment that last answered this session goes first, so the provider's prompt cache
 * stays warm across an agent loop, unless this turn needs a stronger model than it. The others stay behind it in
 * order, so failover still applies.
 */
export function affinityPolicy(store: SessionAffinityStore): RoutingPolicy {
  return {
    specificationVersion: 'v1',
    name: 'affinity',
    order(candidates: Candidate[], context: PolicyContext): PolicyResult {
      if (context.sessionId === undefined) return { candidates, reason: 'no session' };
      const remembered = store.get(context.sessionId);
      if (remembered === undefined) return { candidates, reason: 'new session' };
      const index = candidates.findIndex((candidate) => candidate.deployment.qualifiedName === remembered);
      if (index === -1) return { candidates, reason: `session's model ${remembered} is not a candidate now` };
      const kept = candidates[index];
      if (!kept) return { candidates, reason: 'new session' };
      if (index === 0) return { candidates, reason: `session's model ${remembered} is already first` };
      if (context.explicit && kept.source !== 'explicit') {
        return { candidates, reason: `session's model ${remembered} is only a fallback of the named model` };
      }
      // Never downgrade: when this turn needs a stronger model than the session's, the cache is worth less.
      const needed = candidates[0]?.deployment.tier ?? 5;
      const sessionTier = kept.deployment.tier ?? 5;
      if (index > 0 && sessionTier > needed) {
        return { candidates, reason: `session's model ${remembered} is tier ${sessionTier}, this turn wants tier ≤ ${needed}` };
      }
      const rest = candidates.filter((_, position) => position !== index);
      return { candidates: [{ ...kept, source: 'affinity' }, ...rest], reason: `session last answered by ${remembered}` };
    },
  };
}
