import type { Deployment } from '../catalog/deployment.js';

/**
 * Why a deployment is on the list; the served candidate's source becomes the `x-hermes-router-route` header.
 * `explicit`: the model the client named; `fallback`: a configured fallback or a policy's reserve; `default`: the
 * global default; the rest name the policy that put it where it is.
 */
export const candidateSources = ['explicit', 'fallback', 'default', 'cheapest-capable', 'affinity', 'workload-hint', 'topic'] as const;
export type CandidateSource = (typeof candidateSources)[number];

/** One deployment the attempt loop may try, and why it is on the list. */
export interface Candidate {
  deployment: Deployment;
  source: CandidateSource;
}

/**
 * The `x-hermes-router-route` value for the candidate that answered: its own label when it was the first choice
 * or a labelled link of an explicit chain (`fallback`, `default`); `fallback` when a policy's first choice
 * failed and a later one answered.
 */
export function routeLabel(candidates: readonly Candidate[], served: Candidate['deployment']): CandidateSource {
  const index = candidates.findIndex((candidate) => candidate.deployment === served);
  const candidate = candidates[index];
  if (!candidate) return 'explicit';
  if (index === 0 || candidate.source === 'fallback' || candidate.source === 'default') return candidate.source;
  return 'fallback';
}
