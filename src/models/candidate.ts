import type { Deployment } from '../catalog/deployment.js';

/** One deployment the attempt loop may try, and why it is on the list. */
export interface Candidate {
  deployment: Deployment;
  source: 'requested' | 'fallback' | 'default';
}
