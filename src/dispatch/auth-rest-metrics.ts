import { Counter, Gauge } from '../core/prometheus.js';
import type { Registry } from '../core/prometheus.js';
import type { AuthRestEvent, KeyAuthRests } from './key-auth-rests.js';

/**
 * `/metrics` for provider keys refused by their upstream: a counter per failure and a gauge of the rests in
 * force. Keys are named by provider and last 4 characters (bounded by the config, never by clients).
 */
export function exportAuthRestMetrics(
  rests: KeyAuthRests,
  onRest: (listener: (event: AuthRestEvent) => void) => void,
  registry: Registry,
): void {
  const failures = new Counter({
    name: 'hermes_router_key_auth_failures_total',
    help: 'Upstream 401/403 answers per provider key (last 4): scope key (401, every model) or model (403)',
    labelNames: ['provider', 'key', 'scope', 'status'],
    registers: [registry],
  });
  new Gauge({
    name: 'hermes_router_key_auth_resting',
    help: 'Provider keys resting after a 401/403 (1 per rest in force; model "*" for every model)',
    labelNames: ['provider', 'key', 'model'],
    registers: [registry],
    collect() {
      this.reset();
      for (const event of rests.resting()) this.set({ provider: event.providerId, key: event.keyHint, model: event.model ?? '*' }, 1);
    },
  });
  onRest((event) => failures.inc({ provider: event.providerId, key: event.keyHint, scope: event.scope, status: String(event.status) }));
}
