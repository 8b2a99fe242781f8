import { GatewayError } from '../core/errors.js';
import type { RequestRecord } from '../core/ledger-record.js';
import { emptyUsage } from '../core/usage.js';
import type { Usage } from '../core/usage.js';
import { loadO200kYielding, o200kLoaded } from '../classify/text/o200k.js';
import { estimateUsage } from '../ledger/estimate-usage.js';
import type { EstimateSource } from '../ledger/estimate-usage.js';
import type { BudgetCharge, BudgetCounterStore } from '../store/budget-counter-store.js';
import { MemoryBudgetCounterStore } from '../store/memory/memory-budget-counter-store.js';
import type { BudgetsConfig } from '../config/budgets.js';
import { counterName, deploymentRules, requestRules } from './counters.js';
import { windowAt } from './windows.js';
import type { BoundRule, BudgetDeployment, BudgetSubject } from './counters.js';
import { exceededMessage, warningText } from './messages.js';
import { budgetRules } from './rules.js';
import type { BudgetRule } from './rules.js';

/** A running request's hold is dropped by the store after this long, should its instance die before settling. */
const holdMs = 15 * 60 * 1000;

export interface BudgetEstimate {
  inputTokens: number;
  outputTokens: number;
}

export interface BudgetLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export interface BudgetGuardOptions {
  config: BudgetsConfig;
  store?: BudgetCounterStore;
  /** USD for a usage on a deployment (0 when unpriced: an unpriced model cannot be held to a dollar budget). */
  priceOf: (deployment: BudgetDeployment, usage: Usage) => number;
  /** USD a finished request cost, priced as the ledger prices it. */
  costOf: (record: RequestRecord) => number;
  /** An application key's name from its id, so `budgets.keys` may name keys either way. */
  keyName?: (keyId: string) => string | undefined;
  logger?: BudgetLogger;
  now?: () => number;
}

export interface BudgetAdmission<T> {
  candidates: T[];
  /** Soft-limit warnings, for the `x-hermes-router-budget-warning` header. */
  warnings: string[];
}

/** Events the metrics follow (`budget-metrics.ts`); labels come from the config, never from clients. */
export interface BudgetEvents {
  warned(label: string): void;
  refused(label: string): void;
}

/** One budget as `hermes-router budgets`, `/metrics` and the dashboard show it. */
export interface BudgetStatus {
  label: string;
  scope: BudgetRule['scope'];
  subject?: string;
  window: BudgetRule['window'];
  /** `2026-12-01` or `2026-12`. */
  windowId: string;
  unit: BudgetRule['unit'];
  limit: number;
  spent: number;
  held: number;
  /** (spent + held) / limit. */
  fraction: number;
  state: 'ok' | 'warning' | 'exceeded';
  resetsAt?: string;
}

interface Hold {
  names: string[];
  subject: BudgetSubject;
}

/**
 * Enforces `budgets:`. Before the call, `admit` drops the candidates whose model or provider budget is spent,
 * then reserves an estimate on every budget the request counts against, atomically (`BudgetCounterStore`), and
 * refuses with 429 (`budget_exceeded`) when one is used up. When the request finishes (`requestFinished`, as a
 * request observer), the hold is released and what the request really used is added, to the model and provider
 * that served it. Fails open: when the counters cannot answer, requests go ahead uncounted (logged once).
 */
export class BudgetGuard {
  rules: readonly BudgetRule[];
  readonly store: BudgetCounterStore;
  #options: BudgetGuardOptions;
  readonly #now: () => number;
  readonly #holds = new Map<string, Hold>();
  readonly #warnedCounters = new Set<string>();
  readonly #listeners: BudgetEvents[] = [];
  #failing = false;

  constructor(options: BudgetGuardOptions) {
    this.#options = options;
    this.rules = budgetRules(options.config);
    this.store = options.store ?? new MemoryBudgetCounterStore();
    this.#now = options.now ?? Date.now;
  }

  /** A reloaded config: the next request counts against the new limits; counters and running holds stay. */
  reconfigure(config: BudgetsConfig): void {
    this.#options = { ...this.#options, config };
    this.rules = budgetRules(config);
  }

  get active(): boolean {
    return this.rules.length > 0;
  }

  get config(): BudgetsConfig {
    return this.#options.config;
  }

  listen(listener: BudgetEvents): void {
    this.#listeners.push(listener);
  }

  /** Output tokens to hold for a request: its own cap when it sets one, else the configured guess. */
  outputEstimate(maxTokens: unknown): number {
    return typeof maxTokens === 'number' && maxTokens > 0 ? maxTokens : this.#options.config.estimate_output_tokens;
  }

  async admit<T extends { deployment: BudgetDeployment }>(
    requestId: string,
    subject: BudgetSubject,
    candidates: T[],
    estimate: BudgetEstimate,
  ): Promise<BudgetAdmission<T>> {
    if (!this.active || candidates.length === 0) return { candidates, warnings: [] };
    const at = this.#now();
    const common = requestRules(this.rules, subject, at);
    try {
      let remaining = await this.#withinDeploymentBudgets(candidates, subject, at);
      while (remaining.length > 0) {
        const first = remaining[0] as T;
        const own = deploymentRules(this.rules, first.deployment, subject, at);
        const bound = [...common, ...own];
        if (bound.length === 0) return { candidates: remaining, warnings: [] };
        const usd = this.#options.priceOf(first.deployment, { ...emptyUsage(), inputTokens: estimate.inputTokens, outputTokens: estimate.outputTokens });
        const charges = bound.map((entry) => this.#charge(entry, entry.rule.unit === 'usd' ? usd : estimate.inputTokens + estimate.outputTokens, true));
        const reservation = await this.store.reserve(requestId, charges, holdMs, at);
        this.#answered();
        if (reservation.admitted) {
          this.#holds.set(requestId, { names: bound.map((entry) => entry.name), subject });
          return { candidates: remaining, warnings: this.#warnings(bound, reservation.committed) };
        }
        const refused = bound[reservation.refusedIndex] as BoundRule;
        const committed = reservation.committed[reservation.refusedIndex] ?? 0;
        // Another request used up this model's or provider's budget meanwhile: the next candidate may still fit.
        if (reservation.refusedIndex < common.length || remaining.length === 1) throw this.#refusal(refused, committed, at);
        remaining = remaining.slice(1);
      }
      return { candidates: remaining, warnings: [] };
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      this.#failed('reserve', error);
      return { candidates, warnings: [] };
    }
  }

  /** For the gateway's request observers: settles the request's hold with what it really used. Never throws. */
  requestFinished(record: RequestRecord, estimateFrom?: EstimateSource): void {
    const hold = this.#holds.get(record.requestId);
    this.#holds.delete(record.requestId);
    if (!this.active) return;
    const subject: BudgetSubject = hold?.subject ?? {
      ...(record.sessionId === undefined ? {} : { sessionId: record.sessionId }),
      ...(record.clientKeyId === undefined ? {} : { keyId: record.clientKeyId, ...this.#keyName(record.clientKeyId) }),
    };
    const at = this.#now();
    const source = record.usage === undefined && record.status === 200 && record.servedModel !== undefined && !record.decision.cache?.hit ? estimateFrom : undefined;
    if (source !== undefined && !o200kLoaded()) {
      // The first estimate would read the tokenizer's tables (tens of MB) on the event loop and hold every request
      // for a quarter of a second or, on a loaded machine, seconds; read them in slices that yield, then settle.
      // The request has answered already; only its hold stays in the counters a moment longer.
      void loadO200kYielding()
        .catch(() => undefined)
        .then(() => this.#settle(record, hold, subject, at, source));
      return;
    }
    this.#settle(record, hold, subject, at, source);
  }

  /** Releases the hold and charges what the request used (its reported usage, else an estimate from `source`). */
  #settle(record: RequestRecord, hold: Hold | undefined, subject: BudgetSubject, at: number, source: EstimateSource | undefined): void {
    let spent: BudgetCharge[] = [];
    try {
      const usage = record.usage ?? (source === undefined ? undefined : estimateUsage(source));
      if (usage !== undefined && !record.decision.cache?.hit) {
        const served =
          record.servedProvider !== undefined && record.servedModel !== undefined
            ? deploymentRules(this.rules, { providerId: record.servedProvider, modelId: record.servedModel, qualifiedName: `${record.servedProvider}/${record.servedModel}` }, subject, at)
            : [];
        const tokens = usage.inputTokens + usage.outputTokens;
        const usd = this.#options.costOf({ ...record, usage });
        spent = [...requestRules(this.rules, subject, at), ...served].map((entry) => this.#charge(entry, entry.rule.unit === 'usd' ? usd : tokens, false));
      }
    } catch (error) {
      this.#options.logger?.warn({ error: error instanceof Error ? error.message : String(error) }, 'could not price a finished request for its budgets');
    }
    if (hold === undefined && spent.length === 0) return;
    void this.store.settle(record.requestId, hold?.names ?? [], spent).then(
      () => this.#answered(),
      (error: unknown) => this.#failed('settle', error),
    );
  }

  /**
   * Every day and month budget now: spent, held by running requests, the limit and when it resets. Session budgets
   * are one counter per session and are not listed.
   */
  async status(): Promise<BudgetStatus[]> {
    const at = this.#now();
    const bound = this.rules.flatMap((rule) => {
      if (rule.window === 'session') return [];
      const window = windowAt(rule.window, at, undefined);
      return window === undefined ? [] : [{ rule, window, name: counterName(rule, window) }];
    });
    const totals = await this.store.read(bound.map((entry) => entry.name), at);
    return bound.map((entry, index) => {
      const total = totals[index] ?? { spent: 0, held: 0 };
      const used = total.spent + total.held;
      return {
        label: entry.rule.label,
        scope: entry.rule.scope,
        ...(entry.rule.subject === undefined ? {} : { subject: entry.rule.subject }),
        window: entry.rule.window,
        windowId: entry.window.id,
        unit: entry.rule.unit,
        limit: entry.rule.limit,
        spent: total.spent,
        held: total.held,
        fraction: used / entry.rule.limit,
        state: used >= entry.rule.limit ? 'exceeded' : used >= this.#options.config.soft_at * entry.rule.limit ? 'warning' : 'ok',
        ...(entry.window.resetsAt === undefined ? {} : { resetsAt: new Date(entry.window.resetsAt).toISOString() }),
      };
    });
  }

  requestStarted(): void {
    // Budgets count finished requests only.
  }

  async #withinDeploymentBudgets<T extends { deployment: BudgetDeployment }>(candidates: T[], subject: BudgetSubject, at: number): Promise<T[]> {
    const perCandidate = candidates.map((candidate) => deploymentRules(this.rules, candidate.deployment, subject, at));
    const names = [...new Set(perCandidate.flat().map((entry) => entry.name))];
    if (names.length === 0) return candidates;
    const totals = new Map((await this.store.read(names, at)).map((total, index) => [names[index] as string, total.spent + total.held]));
    const spentOn = (entry: BoundRule) => (totals.get(entry.name) ?? 0) >= entry.rule.limit;
    const kept = candidates.filter((_, index) => !(perCandidate[index] ?? []).some(spentOn));
    if (kept.length > 0) return kept;
    const first = (perCandidate[0] ?? []).find(spentOn) as BoundRule;
    throw this.#refusal(first, totals.get(first.name) ?? 0, at);
  }

  #charge(entry: BoundRule, amount: number, withLimit: boolean): BudgetCharge {
    return { name: entry.name, amount, ttlMs: entry.window.ttlMs, ...(withLimit ? { limit: entry.rule.limit } : {}) };
  }

  #refusal(entry: BoundRule, committed: number, at: number): GatewayError {
    for (const listener of this.#listeners) listener.refused(entry.rule.label);
    this.#options.logger?.warn({ budget: entry.rule.label, counter: entry.name, committed, limit: entry.rule.limit }, 'budget reached; request refused');
    const resetsAt = entry.window.resetsAt;
    return new GatewayError('budget_exceeded', exceededMessage(entry, committed), resetsAt === undefined ? {} : { retryAfterMs: Math.max(1_000, resetsAt - at) });
  }

  #warnings(bound: BoundRule[], committed: number[]): string[] {
    const warnings: string[] = [];
    bound.forEach((entry, index) => {
      const used = committed[index] ?? 0;
      if (used < this.#options.config.soft_at * entry.rule.limit) return;
      const text = warningText(entry, used);
      warnings.push(text);
      for (const listener of this.#listeners) listener.warned(entry.rule.label);
      // Once per counter (a day, a month, a session) per process, not once per request.
      if (this.#warnedCounters.has(entry.name)) return;
      if (this.#warnedCounters.size > 10_000) this.#warnedCounters.clear();
      this.#warnedCounters.add(entry.name);
      this.#options.logger?.warn({ budget: entry.rule.label, counter: entry.name, used, limit: entry.rule.limit }, `budget soft limit: ${text}`);
    });
    return warnings;
  }

  #keyName(keyId: string): { keyName?: string } {
    const name = this.#options.keyName?.(keyId);
    return name === undefined ? {} : { keyName: name };
  }

  #answered(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#options.logger?.info({}, 'budget counters answer again; budgets are enforced');
  }

  #failed(operation: string, error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#options.logger?.warn(
      { operation, error: error instanceof Error ? error.message : String(error) },
      'budget counters unreachable; admitting requests without counting them until they answer',
    );
  }
}

