import type { Deployment } from '../catalog/deployment.js';
import { isConfirmedSource } from '../catalog/metadata/model-metadata.js';
import type { Turn } from '../core/turn.js';
import type { Candidate } from './candidate.js';

export interface Skipped {
  provider: string;
  model: string;
  reason: string;
}

/** True only when the catalog holds a confirmed (config, probe or bundled) `true` for the capability. */
export function confirmedCapability(deployment: Deployment, field: 'supportsTools' | 'supportsVision'): boolean {
  return deployment[field] === true && isConfirmedSource(deployment.sources?.[field]);
}

function skip(list: Skipped[], candidate: Candidate, reason: string): void {
  list.push({ provider: candidate.deployment.providerId, model: candidate.deployment.modelId, reason });
}

/**
 * Keeps candidates that have a capability the request needs. Known-capable ones win; when not one candidate is
 * known to have it the unknown ones are all tried (a new, unprobed provider must not make requests fail), but a
 * model known to lack it never is.
 */
function requireCapability(
  candidates: Candidate[],
  field: 'supportsTools' | 'supportsVision',
  label: string,
  skipped: Skipped[],
  keepUnknown: boolean,
): Candidate[] {
  const known = candidates.filter((candidate) => candidate.deployment[field] === true);
  const unknown = candidates.filter((candidate) => candidate.deployment[field] === undefined);
  for (const candidate of candidates) {
    if (candidate.deployment[field] === false) skip(skipped, candidate, `no ${label}`);
  }
  if (keepUnknown) return candidates.filter((candidate) => candidate.deployment[field] !== false);
  if (known.length > 0) {
    for (const candidate of unknown) skip(skipped, candidate, `${label} unknown while others have it`);
    return known;
  }
  return unknown;
}

/** The prompt-size check rests on an estimate: it never empties the list (then the providers decide). */
function fitContext(candidates: Candidate[], turn: Turn, skipped: Skipped[]): Candidate[] {
  const size = turn.estimatedInputTokens;
  const kept: Candidate[] = [];
  const rejected: Skipped[] = [];
  for (const candidate of candidates) {
    const { contextWindow, skipTokensOver } = candidate.deployment;
    if (contextWindow !== undefined && size > contextWindow) {
      skip(rejected, candidate, `prompt ~${size} tokens > context window ${contextWindow}`);
    } else if (skipTokensOver !== undefined && size > skipTokensOver) {
      skip(rejected, candidate, `prompt ~${size} tokens > skip_tokens_over ${skipTokensOver}`);
    } else {
      kept.push(candidate);
    }
  }
  skipped.push(...rejected);
  return kept.length > 0 ? kept : candidates;
}

/**
 * Everything known before any call: tools, images, prompt size. `explicit`: the client named the model, so one
 * whose capability is merely unknown stays on its list (only a known lack removes it).
 */
export function filterByCapability(candidates: Candidate[], turn: Turn, skipped: Skipped[], explicit = false): Candidate[] {
  let kept = candidates;
  if (turn.tools.length > 0) kept = requireCapability(kept, 'supportsTools', 'tool calling', skipped, explicit);
  if (turn.hasImages) kept = requireCapability(kept, 'supportsVision', 'vision', skipped, explicit);
  return fitContext(kept, turn, skipped);
}
