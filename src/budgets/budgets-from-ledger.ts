import type { BudgetCounterStore } from '../store/budget-counter-store.js';
import type { LedgerStore, LedgerTotals } from '../store/ledger-store.js';
import { counterName } from './counters.js';
import type { BudgetRule } from './rules.js';
import { windowAt, windowStart } from './windows.js';

export interface RebuildLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

type Ledger = Pick<LedgerStore, 'totals' | 'models' | 'clientKeys' | 'sessions'>;

function amountOf(rule: BudgetRule, totals: Pick<LedgerTotals, 'inputTokens' | 'outputTokens' | 'costUsd'>): number {
  return rule.unit === 'usd' ? totals.costUsd : totals.inputTokens + totals.outputTokens;
}

function sum(rows: readonly Pick<LedgerTotals, 'inputTokens' | 'outputTokens' | 'costUsd'>[]): Pick<LedgerTotals, 'inputTokens' | 'outputTokens' | 'costUsd'> {
  return rows.reduce(
    (total, row) => ({ inputTokens: total.inputTokens + row.inputTokens, outputTokens: total.outputTokens + row.outputTokens, costUsd: total.costUsd + row.costUsd }),
    { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  );
}

/**
 * Starts the budget counters from the ledger, so a restart does not hand out fresh budgets: every day and month
 * budget (gateway, model, provider, key by id) from the rows of its window, and the gateway's per-session budget
 * from the sessions of the last week. `seed` sets a counter only when it has none, so in a cluster an instance
 * that starts while others run never doubles their live counts. Run before the gateway listens (its own rows are
 * not in the ledger yet). Not rebuilt: per-session budgets of a model, provider or key.
 *
 * A ledger that cannot be read leaves the counters as they are: budgets fail open (as they do while Redis is
 * down), counting only what this instance serves from now on. That is said three ways, not hidden: a warning in
 * the log, the returned reason, and `/health` (`budgetsRebuildProblem`) until every window that was current at
 * start has ended.
 */
export async function rebuildBudgetsFromLedger(
  ledger: Ledger,
  rules: readonly BudgetRule[],
  store: BudgetCounterStore,
  options: { now?: () => number; logger?: RebuildLogger; keyName?: (keyId: string) => string | undefined } = {},
): Promise<string | undefined> {
  if (rules.length === 0) return undefined;
  const at = (options.now ?? Date.now)();
  try {
    for (const rule of rules) {
      if (rule.window === 'session') {
        if (rule.scope !== 'gateway') continue;
        const sessions = await ledger.sessions({ since: at - 7 * 24 * 60 * 60 * 1000 });
        for (const row of sessions) {
          const window = row.sessionId === null ? undefined : windowAt('session', at, row.sessionId);
          if (window) await store.seed(counterName(rule, window), amountOf(rule, row), window.ttlMs);
        }
        continue;
      }
      const window = windowAt(rule.window, at, undefined);
      if (window === undefined) continue;
      const since = windowStart(rule.window, at);
      let totals: Pick<LedgerTotals, 'inputTokens' | 'outputTokens' | 'costUsd'>;
      if (rule.scope === 'gateway') totals = await ledger.totals({ since });
      else if (rule.scope === 'key') {
        const rows = await ledger.clientKeys({ since });
        totals = sum(rows.filter((row) => row.clientKeyId === rule.subject || options.keyName?.(row.clientKeyId) === rule.subject));
      } else {
        const rows = await ledger.models({ since });
        totals = sum(
          rows.filter((row) =>
            rule.scope === 'provider' ? row.provider === rule.subject : row.model === rule.subject || `${row.provider}/${row.model}` === rule.subject,
          ),
        );
      }
      await store.seed(counterName(rule, window), amountOf(rule, totals), window.ttlMs);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    options.logger?.warn(
      { error: reason },
      'the ledger could not be read at start: budgets start from what the counters hold (zero on one instance) and count only requests from now on',
    );
    return reason;
  }
  return undefined;
}

/**
 * What `/health` says after a rebuild that could not read the ledger (`reason`), at `now`: undefined once every
 * day or month window that was current at `startedAt` has ended (the counters then hold every request of the
 * window), else which budgets undercount and until when.
 */
export function budgetsRebuildProblem(rules: readonly BudgetRule[], startedAt: number, reason: string | undefined, now: number): string | undefined {
  if (reason === undefined) return undefined;
  const stale = rules.filter((rule) => rule.window !== 'session' && windowStart(rule.window, now) === windowStart(rule.window, startedAt));
  if (stale.length === 0) return undefined;
  const labels = [...new Set(stale.map((rule) => rule.label))];
  return `budgets did not start from the ledger (${reason}): ${labels.join(', ')} count only requests since ${new Date(startedAt).toISOString()}, so they may admit more than their limit until their window ends`;
}
