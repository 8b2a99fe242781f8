import type { ServerResponse } from 'node:http';
import type { Gateway } from '../../pipeline/gateway.js';
import { sendJson } from '../send.js';

/** Liveness plus what an operator wants at a glance: providers configured and open circuits. */
export function handleHealth(gateway: Gateway, response: ServerResponse, startedAt: number): void {
  const breakers = gateway.breakers.snapshot();
  const open = Object.entries(breakers)
    .filter(([, state]) => state !== 'closed')
    .map(([deployment, state]) => ({ deployment, state }));
  sendJson(response, 200, {
    // Names the service, so `doctor` can tell the gateway holding its port from another program.
    service: 'hermes-router',
    status: 'ok',
    uptime_s: Math.round((Date.now() - startedAt) / 1000),
    providers: gateway.providers.size,
    models: gateway.catalog.modelNames().length,
    ...(gateway.providers.size === 0 ? { warning: 'no provider configured: chat requests answer 503' } : {}),
    circuits: open,
  });
}
