import type { BudgetAmounts, BudgetsConfig } from '../config/budgets.js';

export type BudgetScope = 'gateway' | 'model' | 'provider' | 'key';
export type BudgetWindow = 'session' | 'day' | 'month';
export type BudgetUnit = 'usd' | 'tokens';

/** One limit: a scope (and its subject), a window and a unit. */
export interface BudgetRule {
  scope: BudgetScope;
  /** The model, provider or key name as the config spells it; undefined for the gateway. */
  subject?: string;
  window: BudgetWindow;
  unit: BudgetUnit;
  limit: number;
  /** Bounded by the config (never a session id): a metric label and the name the CLI shows, e.g. `model gpt-test day tokens`. */
  label: string;
}

function rulesOf(scope: BudgetScope, subject: string | undefined, windows: Partial<Record<BudgetWindow, BudgetAmounts>>): BudgetRule[] {
  const rules: BudgetRule[] = [];
  for (const window of ['session', 'day', 'month'] as const) {
    const amounts = windows[window];
    if (amounts === undefined) continue;
    for (const unit of ['usd', 'tokens'] as const) {
      const limit = amounts[unit];
      if (limit === undefined) continue;
      const label = [scope, subject, window, unit].filter((part) => part !== undefined).join(' ');
      rules.push({ scope, ...(subject === undefined ? {} : { subject }), window, unit, limit, label });
    }
  }
  return rules;
}

/** Every limit the config sets, flattened; `session:` joins the gateway's own windows. */
export function budgetRules(config: BudgetsConfig): BudgetRule[] {
  const gatewayWindows = { ...config.gateway, ...(config.session === undefined ? {} : { session: config.session }) };
  return [
    ...rulesOf('gateway', undefined, gatewayWindows),
    ...Object.entries(config.models).flatMap(([model, windows]) => rulesOf('model', model, windows)),
    ...Object.entries(config.providers).flatMap(([provider, windows]) => rulesOf('provider', provider, windows)),
    ...Object.entries(config.keys).flatMap(([key, windows]) => rulesOf('key', key, windows)),
  ];
}
