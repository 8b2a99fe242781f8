import { Counter, type Registry } from '../core/prometheus.js';
import type { KeyLimiter } from './key-limiter.js';

/** Exports how many keyed requests went through uncounted because the limit counters (Redis) failed. */
export function exportLimiterMetrics(limiter: KeyLimiter, registry: Registry): void {
  const failedOpen = new Counter({
    name: 'hermes_router_key_limit_fail_open_total',
    help: 'Requests of keys with rate or budget limits admitted without counting because the counters (Redis) failed',
    registers: [registry],
  });
  limiter.onFailOpen(() => failedOpen.inc());
}
