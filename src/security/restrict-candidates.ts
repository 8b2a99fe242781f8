import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../core/errors.js';
import { principalOf } from './principal.js';

interface DeploymentLike {
  deployment: { providerId: string; modelId: string; qualifiedName: string };
}

/**
 * Keeps the candidates an application key may reach (its `providers` and `models` limits). A key that may reach
 * none of them gets 403 rather than a silent switch to a model the client did not ask for.
 */
export function restrictCandidates<T extends DeploymentLike>(request: IncomingMessage, candidates: T[], requestedModel: string): T[] {
  const principal = principalOf(request);
  if (principal?.kind !== 'application') return candidates;
  const { providers, models } = principal.key.limits;
  if (providers === undefined && models === undefined) return candidates;
  const allowed = candidates.filter(
    ({ deployment }) =>
      (providers === undefined || providers.includes(deployment.providerId)) &&
      (models === undefined || models.includes(deployment.modelId) || models.includes(deployment.qualifiedName)),
  );
  if (allowed.length === 0 && candidates.length > 0) {
    const names = [...(models ?? []), ...(providers ?? []).map((provider) => `${provider}/*`)].join(', ');
    throw new GatewayError('permission', `This key may not use ${requestedModel || 'that model'}; it may use: ${names}.`);
  }
  return allowed;
}
