import type { BudgetUnit } from './rules.js';
import type { BoundRule } from './counters.js';

export function formatAmount(unit: BudgetUnit, amount: number): string {
  return unit === 'usd' ? `$${amount.toFixed(amount < 1 ? 4 : 2)}` : `${Math.round(amount).toLocaleString('en-US')} tokens`;
}

function windowPhrase(bound: BoundRule): string {
  if (bound.rule.window === 'session') return 'in this session';
  return bound.rule.window === 'day' ? `today (UTC ${bound.window.id})` : `this month (UTC ${bound.window.id})`;
}

function resetPhrase(bound: BoundRule): string {
  const resetsAt = bound.window.resetsAt;
  return resetsAt === undefined ? 'it does not reset: a new session starts a new budget' : `it resets at ${new Date(resetsAt).toISOString()}`;
}

/** The 429 message: which budget, how much was spent against it, and when it resets. */
export function exceededMessage(bound: BoundRule, committed: number): string {
  const { rule } = bound;
  return (
    `Budget reached: ${rule.label} (${formatAmount(rule.unit, committed)} used ${windowPhrase(bound)} of a ${formatAmount(rule.unit, rule.limit)} limit); ` +
    `${resetPhrase(bound)}. Raise it under \`budgets:\` in the config, or wait.`
  );
}

/** One soft-limit warning, for the response header and the log line. */
export function warningText(bound: BoundRule, committed: number): string {
  const { rule } = bound;
  const percent = Math.floor((committed / rule.limit) * 100);
  const resets = bound.window.resetsAt === undefined ? 'per session' : `resets ${new Date(bound.window.resetsAt).toISOString()}`;
  return `${rule.label} ${percent}% (${formatAmount(rule.unit, committed)} of ${formatAmount(rule.unit, rule.limit)}; ${resets})`;
}
