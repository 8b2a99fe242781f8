import type { Deployment } from '../../catalog/deployment.js';
import type { Turn } from '../../core/turn.js';
import type { Candidate } from '../candidate.js';
import type { DifficultyEstimator } from '../difficulty/difficulty-estimator.js';
import type { PolicyContext, PolicyResult, RoutingPolicy } from './routing-policy.js';

/** The text a difficulty estimate reads: the latest user message, which is what this turn asks. */
export function latestUserText(turn: Turn): string {
  for (let index = turn.messages.length - 1; index >= 0; index -= 1) {
    const message = turn.messages[index];
    if (message?.role === 'user' && message.text.trim() !== '') return message.text;
  }
  return '';
}

function expectedOutputTokens(turn: Turn, fallback: number): number {
  const body = turn.body;
  for (const field of ['max_completion_tokens', 'max_tokens', 'max_output_tokens']) {
    const value = body[field];
    if (typeof value === 'number' && value > 0) return Math.min(value, fallback * 4);
  }
  return fallback;
}

/** USD this request would cost on the deployment; undefined when unpriced. */
export function estimatedCost(deployment: Deployment, inputTokens: number, outputTokens: number): number | undefined {
  const prices = deployment.prices;
  if (!prices) return undefined;
  return (inputTokens * prices.input + outputTokens * prices.output) / 1e6;
}

/** Weakest models count as tier 5 when nothing says otherwise, so they are only picked for easy turns. */
function tierOf(deployment: Deployment): number {
  return deployment.tier ?? 5;
}

/**
 * Cheapest capable: a model of tier t can take a request of difficulty d when t ≤ d (1 strongest/hardest …
 * 5 weakest/easiest). Capable models come first, cheapest first (unpriced after priced), ties by health, then
 * latency; the others follow strongest first as failover.
 */
export function cheapestCapablePolicy(estimator: DifficultyEstimator): RoutingPolicy {
  return {
    specificationVersion: 'v1',
    name: 'cheapest-capable',
    order(candidates: Candidate[], context: PolicyContext): PolicyResult {
      const estimate = estimator.estimate(latestUserText(context.turn));
      const difficulty = estimate.level;
      const output = expectedOutputTokens(context.turn, context.config.difficulty.expected_output_tokens);
      const scored = candidates.map((candidate, index) => ({
        candidate,
        index,
        capable: tierOf(candidate.deployment) <= difficulty,
        cost: estimatedCost(candidate.deployment, context.turn.estimatedInputTokens, output),
        health: context.health(candidate.deployment),
        latency: context.latency(candidate.deployment) ?? Number.POSITIVE_INFINITY,
      }));
      type Scored = (typeof scored)[number];
      const byCost = (left: Scored, right: Scored): number => {
        if (left.cost !== undefined && right.cost !== undefined && left.cost !== right.cost) return left.cost - right.cost;
        if ((left.cost === undefined) !== (right.cost === undefined)) return left.cost === undefined ? 1 : -1;
        if (left.health !== right.health) return left.health - right.health;
        if (left.latency !== right.latency) return left.latency < right.latency ? -1 : 1;
        return left.index - right.index;
      };
      const capable = scored.filter((entry) => entry.capable).sort(byCost);
      const reserve = scored
        .filter((entry) => !entry.capable)
        .sort((left, right) => tierOf(left.candidate.deployment) - tierOf(right.candidate.deployment) || byCost(left, right));
      const ordered = [
        ...capable.map((entry) => ({ ...entry.candidate, source: 'cheapest-capable' as const })),
        ...reserve.map((entry) => ({ ...entry.candidate, source: 'fallback' as const })),
      ];
      const chosen = capable[0];
      const price = chosen?.cost === undefined ? 'unpriced' : `~$${chosen.cost.toFixed(6)}`;
      const reason = chosen
        ? `difficulty ${difficulty} (${estimator.name}: ${estimate.reason}); ${capable.length} of ${candidates.length} capable (tier ≤ ${difficulty}); cheapest ${chosen.candidate.deployment.qualifiedName} tier ${tierOf(chosen.candidate.deployment)} ${price}`
        : `difficulty ${difficulty} (${estimator.name}: ${estimate.reason}); no model rated tier ≤ ${difficulty}, strongest first`;
      return { candidates: ordered, reason, difficulty };
    },
  };
}
