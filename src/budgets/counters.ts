import type { BudgetRule } from './rules.js';
import { windowAt } from './windows.js';
import type { WindowInstance } from './windows.js';

/** Who a request is, for the budgets that depend on it. */
export interface BudgetSubject {
  sessionId?: string;
  /** The application key's id and name, when the request came with one. */
  keyId?: string;
  keyName?: string;
}

/** What a model or provider budget matches on. */
export interface BudgetDeployment {
  providerId: string;
  modelId: string;
  qualifiedName: string;
}

/** A rule bound to the window instance a request falls in: one counter. */
export interface BoundRule {
  rule: BudgetRule;
  window: WindowInstance;
  /** The store's counter name, e.g. `model:gpt-test:day:2026-12-01:tokens`. */
  name: string;
}

export function counterName(rule: BudgetRule, window: WindowInstance): string {
  return [rule.scope, rule.subject ?? '', rule.window, window.id, rule.unit].join(':');
}

function bind(rule: BudgetRule, at: number, sessionId: string | undefined): BoundRule | undefined {
  const window = windowAt(rule.window, at, sessionId);
  return window === undefined ? undefined : { rule, window, name: counterName(rule, window) };
}

/** The gateway's and the key's budgets: every request counts against them, whichever model serves it. */
export function requestRules(rules: readonly BudgetRule[], subject: BudgetSubject, at: number): BoundRule[] {
  const matches = (rule: BudgetRule) =>
    rule.scope === 'gateway' || (rule.scope === 'key' && rule.subject !== undefined && (rule.subject === subject.keyId || rule.subject === subject.keyName));
  return rules.filter(matches).flatMap((rule) => bind(rule, at, subject.sessionId) ?? []);
}

/** The budgets of the model and provider a deployment belongs to (a model by its name or `provider/model`). */
export function deploymentRules(rules: readonly BudgetRule[], deployment: BudgetDeployment, subject: BudgetSubject, at: number): BoundRule[] {
  const matches = (rule: BudgetRule) =>
    (rule.scope === 'model' && (rule.subject === deployment.modelId || rule.subject === deployment.qualifiedName)) ||
    (rule.scope === 'provider' && rule.subject === deployment.providerId);
  return rules.filter(matches).flatMap((rule) => bind(rule, at, subject.sessionId) ?? []);
}
