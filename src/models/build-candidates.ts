import type { ModelCatalog } from '../catalog/model-catalog.js';
import { routerAlias } from '../catalog/model-catalog.js';
import type { Deployment } from '../catalog/deployment.js';
import { GatewayError } from '../core/errors.js';
import type { ModelRoutingDecision } from '../core/route-decision.js';
import type { Turn } from '../core/turn.js';
import type { Candidate } from './candidate.js';

export const noProviderMessage =
  'hermes-router has no provider configured. Add one to hermes-router.yaml (or ~/.hermes-router/config.yaml), e.g.\n' +
  'providers:\n  - id: openai\n    kind: openai\n    api_key_env: OPENAI_API_KEY\n    models: [gpt-4.1-mini]\n' +
  'then restart the gateway. `hermes-router doctor` checks the result.';

interface Filtered {
  candidates: Candidate[];
  skipped: { provider: string; model: string; reason: string }[];
}

/** Why a deployment cannot take this request, judged before any call; undefined when it can. */
function rejection(deployment: Deployment, turn: Turn): { reason: string; hard: boolean } | undefined {
  if (turn.tools.length > 0 && deployment.supportsTools === false) return { reason: 'no tool calling', hard: true };
  if (turn.hasImages && deployment.supportsVision === false) return { reason: 'no vision', hard: true };
  if (deployment.contextWindow !== undefined && turn.estimatedInputTokens > deployment.contextWindow) {
    return { reason: `prompt ~${turn.estimatedInputTokens} tokens > context window ${deployment.contextWindow}`, hard: false };
  }
  if (deployment.skipTokensOver !== undefined && turn.estimatedInputTokens > deployment.skipTokensOver) {
    return { reason: `prompt ~${turn.estimatedInputTokens} tokens > skip_tokens_over ${deployment.skipTokensOver}`, hard: false };
  }
  return undefined;
}

function applyFilters(ordered: Candidate[], turn: Turn): Filtered {
  const kept: Candidate[] = [];
  const softRejected: Candidate[] = [];
  const skipped: Filtered['skipped'] = [];
  for (const candidate of ordered) {
    const verdict = rejection(candidate.deployment, turn);
    if (!verdict) {
      kept.push(candidate);
      continue;
    }
    skipped.push({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId, reason: verdict.reason });
    if (!verdict.hard) softRejected.push(candidate);
  }
  // The size check rests on an estimate: when it would rule out everything, let the providers decide (fail open).
  if (kept.length === 0 && softRejected.length > 0) return { candidates: softRejected, skipped };
  return { candidates: kept, skipped };
}

/**
 * The ordered candidates for a request: every provider serving the requested model, then its configured
 * fallbacks, each filtered by what is known before any call (tools, vision, context window).
 */
export function buildCandidates(
  turn: Turn,
  catalog: ModelCatalog,
): { candidates: Candidate[]; decision: ModelRoutingDecision } {
  if (catalog.deployments.length === 0) throw new GatewayError('unavailable', noProviderMessage);
  const requested = catalog.resolve(turn.requestedModel);
  if (requested.length === 0) {
    const available = [routerAlias, ...catalog.modelNames()].join(', ');
    throw new GatewayError('model_not_found', `The model "${turn.requestedModel}" is not served by this gateway. Available: ${available}.`);
  }
  const ordered: Candidate[] = [];
  const seen = new Set<string>();
  const add = (deployments: Deployment[], source: Candidate['source']) => {
    for (const deployment of deployments) {
      if (seen.has(deployment.qualifiedName)) continue;
      seen.add(deployment.qualifiedName);
      ordered.push({ deployment, source });
    }
  };
  add(requested, turn.requestedModel === routerAlias ? 'default' : 'requested');
  const chainNames = new Set([turn.requestedModel, ...requested.map((deployment) => deployment.modelId)]);
  for (const name of chainNames) {
    for (const fallback of catalog.config.fallbacks[name] ?? []) add(catalog.resolve(fallback), 'fallback');
  }
  const { candidates, skipped } = applyFilters(ordered, turn);
  if (candidates.length === 0) {
    const reasons = skipped.map((entry) => `${entry.provider}/${entry.model}: ${entry.reason}`).join('; ');
    throw new GatewayError('unavailable', `No model can take this request (${reasons}).`);
  }
  return {
    candidates,
    decision: {
      policy: 'explicit',
      reason: turn.requestedModel === routerAlias ? 'alias resolved to the default model' : 'the model the client named, then its fallbacks',
      candidates: candidates.map((candidate) => ({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId })),
      ...(skipped.length > 0 ? { skipped } : {}),
    },
  };
}
