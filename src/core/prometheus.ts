import { createRequire } from 'node:module';
import type { Counter as PromCounter, Gauge as PromGauge, Histogram as PromHistogram, Registry as PromRegistry } from 'prom-client';

/**
 * prom-client's registry and the three metric kinds the gateway exports, loaded from their own files. The package
 * index also loads the cluster aggregator, the Pushgateway client (https, tls, zlib) and the default process
 * metrics (perf_hooks, v8), none of which the gateway uses: ~8 MB of RSS at start against ~0.5 MB for these
 * (node -e beside http and crypto, which the gateway loads anyway). The classes are the index's own: it exports
 * these same files. Here, at the bottom row, because the ledger, the attempt loop, budgets, key limits and the
 * cluster stores all export metrics.
 */
const require = createRequire(import.meta.url);

export const Registry = require('prom-client/lib/registry.js') as typeof PromRegistry;
export const Counter = require('prom-client/lib/counter.js') as typeof PromCounter;
export const Gauge = require('prom-client/lib/gauge.js') as typeof PromGauge;
export const Histogram = require('prom-client/lib/histogram.js') as typeof PromHistogram;
export type Registry = PromRegistry;
export type Counter<Labels extends string = string> = PromCounter<Labels>;
export type Gauge<Labels extends string = string> = PromGauge<Labels>;
export type Histogram<Labels extends string = string> = PromHistogram<Labels>;
