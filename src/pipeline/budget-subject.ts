import type { BudgetSubject } from '../budgets/counters.js';
import type { Principal } from '../security/principal.js';

/** Who a request counts as for `budgets:`: its session, and its application key by id and name. */
export function budgetSubjectOf(principal: Principal | undefined, sessionId: string | undefined): BudgetSubject {
  const key = principal?.kind === 'application' ? { keyId: principal.key.id, keyName: principal.key.name } : {};
  return { ...(sessionId === undefined ? {} : { sessionId }), ...key };
}

/** The response header that carries soft-limit warnings (empty when none). */
export function budgetWarningHeader(warnings: readonly string[]): Record<string, string> {
  return warnings.length === 0 ? {} : { 'x-hermes-router-budget-warning': warnings.join('; ') };
}
