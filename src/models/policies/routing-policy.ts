import type { Deployment } from '../../catalog/deployment.js';
import type { Turn } from '../../core/turn.js';
import type { Candidate } from '../candidate.js';
import type { RoutingConfig } from '../../config/routing.js';

/** What a policy may read besides the candidates. */
export interface PolicyContext {
  turn: Turn;
  sessionId: string | undefined;
  /** The client named a concrete model: policies must not put a fallback ahead of it. */
  explicit: boolean;
  config: RoutingConfig;
  /** 0 healthy; higher is worse (circuit open, keys resting). */
  health(deployment: Deployment): number;
  latency(deployment: Deployment): number | undefined;
}

export interface PolicyResult {
  candidates: Candidate[];
  reason: string;
  /** Extra facts for the decision record. */
  difficulty?: number;
  topic?: string;
  persona?: RoutedPersona;
}

/**
 * A system prompt that comes with a policy's choice for this one request (the topic's persona): added only to the
 * attempts sent to `deployments`, so another model that ends up answering gets the client's prompt unchanged.
 */
export interface RoutedPersona {
  /** The topic or route it belongs to; the ledger records this, never the text. */
  topic: string;
  text: string;
  /** Qualified names (`provider/model`) of the deployments that carry it. */
  deployments: readonly string[];
}

/**
 * One routing policy (version 1): reorders (never adds) viable candidates and says why. Policies compose: each
 * receives the previous one's order. Returning the input unchanged with a reason is a valid decision.
 */
export interface RoutingPolicy {
  readonly specificationVersion: 'v1';
  readonly name: string;
  order(candidates: Candidate[], context: PolicyContext): PolicyResult;
}

/** Stable partition: matching candidates first, each group keeping its order. */
export function preferring(candidates: Candidate[], matches: (candidate: Candidate) => boolean): Candidate[] {
  return [...candidates.filter(matches), ...candidates.filter((candidate) => !matches(candidate))];
}

export function describe(candidate: Candidate | undefined): string {
  return candidate ? candidate.deployment.qualifiedName : 'nothing';
}
