import type { ServerResponse } from 'node:http';
import type { Gateway } from '../../pipeline/gateway.js';
import { sendJson } from '../../pipeline/send.js';
import { securityOf } from '../../security/gateway-security.js';
import { UnreadableDayTotals } from '../../security/unreadable-day-totals.js';

/** What is wrong, by part; empty when nothing is. */
function healthChecks(gateway: Gateway): Record<string, string> {
  const checks: Record<string, string> = gateway.healthProblems();
  const security = securityOf(gateway);
  if (security && !security.keysReadable()) {
    checks.keys = `the key store (${security.store.location}) cannot be read: every request but the admin's is refused (503) until it can`;
  }
  const counters = security?.limiter.counters;
  if (counters instanceof UnreadableDayTotals) {
    checks.key_limits = `${counters.reason}: keys with a daily limit are refused (503) until the UTC day ${counters.unknownDay} ends or a restart reads the ledger`;
  }
  return checks;
}

/** Liveness plus what an operator wants at a glance: providers configured and open circuits. */
export function handleHealth(gateway: Gateway, response: ServerResponse, startedAt: number): void {
  const breakers = gateway.breakers.snapshot();
  const open = Object.entries(breakers)
    .filter(([, state]) => state !== 'closed')
    .map(([deployment, state]) => ({ deployment, state }));
  const checks = healthChecks(gateway);
  sendJson(response, 200, {
    // Names the service, so `doctor` can tell the gateway holding its port from another program.
    service: 'hermes-router',
    // `degraded`: serving, but something an operator must see is wrong (`checks` says what).
    status: Object.keys(checks).length === 0 ? 'ok' : 'degraded',
    ...(Object.keys(checks).length === 0 ? {} : { checks }),
    uptime_s: Math.round((Date.now() - startedAt) / 1000),
    providers: gateway.providers.size,
    models: gateway.catalog.modelNames().length,
    ...(gateway.providers.size === 0 ? { warning: 'no provider configured: chat requests answer 503' } : {}),
    circuits: open,
  });
}
