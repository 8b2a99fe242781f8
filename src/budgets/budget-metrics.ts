import { Counter, Gauge, type Registry } from '../core/prometheus.js';
import type { BudgetGuard } from './budget-guard.js';

/**
 * `/metrics` for `budgets:`: each day and month budget's used fraction (read from the counters at scrape time),
 * and soft warnings and hard refusals per budget. The `budget` label is the config's own name for it (e.g.
 * `model gpt-test day tokens`, `gateway session usd`), never a session id or anything a client sent.
 */
export function exportBudgetMetrics(guard: BudgetGuard, registry: Registry): void {
  if (!guard.active) return;
  new Gauge({
    name: 'hermes_router_budget_used_ratio',
    help: 'Spent plus held (running requests) over the limit, per day and month budget; 1 or more refuses',
    labelNames: ['budget'],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const status of await guard.status()) this.set({ budget: status.label }, status.fraction);
      } catch {
        // The counters (Redis) are away: no sample this scrape rather than a failed scrape.
      }
    },
  });
  const warnings = new Counter({
    name: 'hermes_router_budget_warnings_total',
    help: 'Requests served while a budget they count against was past its soft limit (budgets.soft_at)',
    labelNames: ['budget'],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'hermes_router_budget_refusals_total',
    help: 'Requests refused (429) because a budget they count against was used up',
    labelNames: ['budget'],
    registers: [registry],
  });
  guard.listen({
    warned: (label) => warnings.inc({ budget: label }),
    refused: (label) => refusals.inc({ budget: label }),
  });
}
