import type { Deployment } from '../../catalog/deployment.js';
import type { Candidate } from '../candidate.js';
import { confirmedCapability } from '../capability-filter.js';
import { preferring } from './routing-policy.js';
import type { PolicyContext, PolicyResult, RoutingPolicy } from './routing-policy.js';

export const workloadHints = ['planning', 'coding', 'review', 'debug', 'vision', 'general'] as const;

/** What each hint prefers, from catalog metadata only. */
const preferences: Record<string, { label: string; prefers: (deployment: Deployment) => boolean }> = {
  planning: { label: 'reasoning or tier 1', prefers: (deployment) => deployment.supportsReasoning === true || deployment.tier === 1 },
  review: { label: 'tier ≤ 2', prefers: (deployment) => (deployment.tier ?? 5) <= 2 },
  debug: { label: 'reasoning or tier ≤ 2', prefers: (deployment) => deployment.supportsReasoning === true || (deployment.tier ?? 5) <= 2 },
  coding: { label: 'tool-capable and tier ≤ 2', prefers: (deployment) => deployment.supportsTools === true && (deployment.tier ?? 5) <= 2 },
  vision: { label: 'confirmed vision', prefers: (deployment) => confirmedCapability(deployment, 'supportsVision') },
};

/**
 * `X-Hermes-Workload-Hint`: moves candidates that suit the workload ahead of the rest, keeping the previous
 * policy's order inside each group. `general`, missing and unknown values change nothing; `vision` only counts
 * when the request really carries an image.
 */
export const workloadHintPolicy: RoutingPolicy = {
  specificationVersion: 'v1',
  name: 'workload-hint',
  order(candidates: Candidate[], context: PolicyContext): PolicyResult {
    const hint = context.turn.hints.workloadHint;
    if (hint === undefined) return { candidates, reason: 'no hint' };
    const preference = preferences[hint];
    if (!preference) return { candidates, reason: `hint "${hint}" changes nothing` };
    if (hint === 'vision' && !context.turn.hasImages) return { candidates, reason: 'hint "vision" without an image changes nothing' };
    const matching = candidates.filter((candidate) => preference.prefers(candidate.deployment)).length;
    if (matching === 0 || matching === candidates.length) {
      return { candidates, reason: `hint "${hint}": ${matching === 0 ? 'no' : 'every'} candidate is ${preference.label}, order kept` };
    }
    const ordered = preferring(candidates, (candidate) => preference.prefers(candidate.deployment));
    const first = ordered[0];
    const moved = first && first !== candidates[0] ? [{ ...first, source: 'workload-hint' as const }, ...ordered.slice(1)] : ordered;
    return { candidates: moved, reason: `hint "${hint}": ${matching} candidate(s) ${preference.label} first` };
  },
};
