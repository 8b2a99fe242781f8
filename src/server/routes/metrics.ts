import type { GatewayMetrics } from '../../ledger/metrics.js';
import type { ExtraRoute } from '../http-server.js';

/** `GET /metrics` in the Prometheus text format. */
export function metricsRoute(metrics: GatewayMetrics): ExtraRoute {
  return async (request, response, path) => {
    if (path !== '/metrics' || request.method !== 'GET') return false;
    const text = await metrics.registry.metrics();
    response.writeHead(200, { 'content-type': metrics.registry.contentType });
    response.end(text);
    return true;
  };
}
