/**
 * OpenAI `reasoning_effort` ↔ Anthropic `thinking.budget_tokens`. Anthropic's minimum budget is 1,024 tokens
 * and the budget must stay below `max_tokens` (both count thinking inside the output limit).
 */
const budgets = { minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768, max: 65536 } as const;
export type ReasoningEffort = keyof typeof budgets;

export const minimumThinkingBudget = 1024;

function isReasoningEffort(value: unknown): value is ReasoningEffort {
  return typeof value === 'string' && Object.hasOwn(budgets, value);
}

/** The thinking budget for an effort; undefined for `none` and unknown values (no thinking). */
export function reasoningEffortToBudget(effort: unknown): number | undefined {
  return isReasoningEffort(effort) ? budgets[effort] : undefined;
}

export function budgetToReasoningEffort(budget: number): 'low' | 'medium' | 'high' {
  if (budget <= budgets.low) return 'low';
  if (budget <= budgets.medium) return 'medium';
  return 'high';
}
