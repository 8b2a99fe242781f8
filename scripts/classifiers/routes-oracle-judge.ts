/**
 * Shared by the route experiment scripts: route accuracy at the threshold that rejects `rejection` (80%) of the
 * out-of-scope rows (an oracle threshold, only to compare how well scorers separate in-scope from out-of-scope;
 * the shipped threshold is calibrated on the examples themselves), and top-1 accuracy without rejection.
 */
export interface RouteDecision {
  /** Index of the chosen route in `domains`. */
  best: number;
  /** Higher means "more in scope". */
  score: number;
}

export function oracleAccuracy(
  decisions: readonly RouteDecision[],
  scored: readonly { domain: string | null | undefined }[],
  domains: readonly string[],
  rejection = 0.8,
): { atRejection: number; top1: number } {
  const outOfScope = decisions.filter((_, index) => !scored[index]!.domain).map((decision) => decision.score).sort((left, right) => left - right);
  const threshold = outOfScope[Math.ceil(rejection * outOfScope.length) - 1]!;
  let inScope = 0;
  let right = 0;
  let top1 = 0;
  decisions.forEach((decision, index) => {
    const domain = scored[index]!.domain;
    if (!domain) return;
    inScope += 1;
    if (domains[decision.best] !== domain) return;
    top1 += 1;
    if (decision.score > threshold) right += 1;
  });
  return { atRejection: right / inScope, top1: top1 / inScope };
}
