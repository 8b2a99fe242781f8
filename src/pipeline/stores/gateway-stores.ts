import type { BreakerSettings, BreakerState, CircuitBreakers } from '../../dispatch/circuit-breaker.js';
import type { Cooldowns } from '../../dispatch/cooldowns.js';
import type { CacheStore } from '../../store/cache-store.js';
import type { ResponseStore } from '../../store/response-store.js';
import type { CounterStore } from '../../store/counter-store.js';
import type { BudgetCounterStore } from '../../store/budget-counter-store.js';
import type { KeyStore } from '../../store/keys/key-store.js';
import type { DashboardSessionStore } from '../../store/dashboard-session-store.js';
import type { SemanticCacheStore } from '../../store/semantic-cache-store.js';
import type { SessionStore } from '../../store/session-store.js';
import type { PolicyDocument } from '../../store/policy/policy-document.js';
import type { PolicyStore } from '../../store/policy/policy-store.js';
import type { ProbeResultsFeed } from '../../store/probes/probe-store.js';

/**
 * State a gateway takes from outside instead of building in-process defaults (memory sessions, policy file,
 * local breakers and cooldowns). The cluster storage fills it; a single instance passes nothing.
 */
export interface GatewayStores {
  /** Session records (tool surface, affinity, topic inertia, nudge, prompt-cache state): Redis in a cluster. */
  sessions?: SessionStore;
  /** Application keys (Postgres in a cluster); the key file in the data directory when absent. */
  keys?: KeyStore;
  /** Per-key rate and budget counters (Redis in a cluster); memory when absent. */
  counters?: CounterStore;
  /** `budgets:` counters (Redis in a cluster; memory rebuilt from the ledger for one instance). */
  budgets?: BudgetCounterStore;
  /** Dashboard logins (Redis in a cluster, so a login holds on every instance); memory when absent. */
  dashboardSessions?: DashboardSessionStore;
  /** The policy store and the document read from it before the gateway started. */
  policy?: { store: PolicyStore; initial: PolicyDocument };
  /** Builds the breakers; `onChange` is the gateway's own listener (log line, metrics). */
  createBreakers?: (settings: BreakerSettings, onChange: (key: string, state: BreakerState) => void) => CircuitBreakers;
  cooldowns?: Cooldowns;
  /** The response cache's storage (Redis in a cluster). */
  cache?: CacheStore;
  /** Stored Responses API responses; memory when absent. */
  responses?: ResponseStore;
  /** The semantic cache's vectors (Redis in a cluster). */
  semanticCache?: SemanticCacheStore;
  /** `models probe` results, followed while running (Postgres in a cluster); `model-probes.json` read at start when absent. */
  probes?: ProbeResultsFeed;
}
