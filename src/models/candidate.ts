import type { Deployment } from '../catalog/deployment.js';

/**
 * Why a deployment is on the list; the served candidate's source becomes the `x-hermes-router-route` header.
 * `explicit`: the model the client named; `fallback`: a configured fallback or a policy's reserve; `default`: the
 * global default; the rest name the policy that put it where it is.
 */
export type CandidateSource =
  | 'explicit'
  | 'fallback'
  | 'default'
  | 'cheapest-capable'
  | 'affinity'
  | 'workload-hint'
  | 'topic';

/** One deployment the attempt loop may try, and why it is on the list. */
export interface Candidate {
  deployment: Deployment;
  source: CandidateSource;
}
