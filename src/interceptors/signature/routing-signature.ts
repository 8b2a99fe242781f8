import type { ModelRoutingDecision } from '../../core/route-decision.js';
import { formatSignature } from '../../models/topic/signature.js';

/**
 * The signature line for one answer, in the seed ARC's format: `- mid [general]`, `- mid [coding | routed:
 * strong]` when a fallback answered instead of the first choice, `- mid [skip]` when the user skipped routing.
 */
export function routingSignature(decision: ModelRoutingDecision | undefined, answeredBy: string): string {
  const first = decision?.candidates[0]?.model;
  const topic = decision?.topic;
  return formatSignature({
    finalModel: answeredBy,
    ...(topic === 'skip' ? { skipped: true } : topic === undefined ? {} : { topic }),
    ...(first === undefined ? {} : { routedModel: first }),
  });
}

/** Separates the signature from the answer. */
export const signatureSeparator = '\n\n';
