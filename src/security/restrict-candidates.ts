import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../core/errors.js';
import { principalOf } from './principal.js';
import type { Principal } from './principal.js';
import type { KeyLimits } from '../store/keys/key-record.js';

interface DeploymentFacts {
  providerId: string;
  modelId: string;
  qualifiedName: string;
}

interface DeploymentLike {
  deployment: DeploymentFacts;
}

function mayUse(limits: KeyLimits, deployment: DeploymentFacts): boolean {
  const { providers, models } = limits;
  return (
    (providers === undefined || providers.includes(deployment.providerId)) &&
    (models === undefined || models.includes(deployment.modelId) || models.includes(deployment.qualifiedName))
  );
}

function refusal(limits: KeyLimits, requestedModel: string): GatewayError {
  const names = [...(limits.models ?? []), ...(limits.providers ?? []).map((provider) => `${provider}/*`)].join(', ');
  return new GatewayError('permission', `This key may not use ${requestedModel || 'that model'}; it may use: ${names}.`);
}

/**
 * Keeps the candidates an application key may reach (its `providers` and `models` limits). A model the client
 * named (`named`: the deployments its name resolves to; empty for the router alias) must itself be allowed:
 * otherwise 403, never a silent switch to a fallback or the default the key happens to allow. Fallbacks,
 * the default and the router's own choices outside the key's list are dropped; none left → 403.
 */
export function restrictCandidates<T extends DeploymentLike>(
  request: IncomingMessage,
  candidates: T[],
  requestedModel: string,
  named: readonly DeploymentFacts[] = [],
): T[] {
  return restrictCandidatesFor(principalOf(request), candidates, requestedModel, named);
}

/** `restrictCandidates` for a principal the caller already holds (the request pipeline has no HTTP request). */
export function restrictCandidatesFor<T extends DeploymentLike>(
  principal: Principal | undefined,
  candidates: T[],
  requestedModel: string,
  named: readonly DeploymentFacts[] = [],
): T[] {
  if (principal?.kind !== 'application') return candidates;
  const limits = principal.key.limits;
  if (limits.providers === undefined && limits.models === undefined) return candidates;
  if (named.length > 0 && !named.some((deployment) => mayUse(limits, deployment))) throw refusal(limits, requestedModel);
  const allowed = candidates.filter(({ deployment }) => mayUse(limits, deployment));
  if (allowed.length === 0 && candidates.length > 0) throw refusal(limits, requestedModel);
  return allowed;
}
