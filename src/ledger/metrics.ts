import { Counter, Gauge, Histogram, Registry } from '../core/prometheus.js';
import type { RequestRecord } from '../core/ledger-record.js';
import { failedOver } from '../core/ledger-record.js';

/** Same values as the dispatch circuit breaker's states. */
export type CircuitState = 'closed' | 'half-open' | 'open';
const circuitStateValue: Record<CircuitState, number> = { closed: 0, 'half-open': 1, open: 2 };

const latencyBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
/** Gateway overhead is milliseconds, so the buckets start well under one. */
const overheadBuckets = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];
const unservedLabel = '(unserved)';
const tokenKinds = ['input', 'output', 'cache_read', 'cache_write', 'reasoning'] as const;

/**
 * The gateway's Prometheus metrics, in a registry of their own (never prom-client's global one, so two gateways
 * in one process, or tests, do not collide). Serve `registry.metrics()` with `registry.contentType` at
 * `GET /metrics`. Model labels use the served model, or `(unserved)`: the requested name is whatever a client
 * sent, and a label fed by clients would let any caller grow the series without bound.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'status' | 'format' | 'model'>;
  readonly #errors: Counter<'class'>;
  readonly #attempts: Counter<'provider' | 'outcome'>;
  readonly #failovers: Counter<'model'>;
  readonly #tokens: Counter<'kind' | 'model'>;
  readonly #estimatedRequests: Counter<'model'>;
  readonly #cost: Counter<'model'>;
  readonly #unpriced: Counter<'model'>;
  readonly #timeToFirstByte: Histogram<'format' | 'streaming'>;
  readonly #overhead: Histogram<'format'>;
  readonly #duration: Histogram<'format' | 'streaming'>;
  readonly #inFlight: Gauge;
  readonly #circuits: Gauge<'circuit'>;
  readonly #ledgerQueue: Gauge;
  readonly #ledgerDropped: Counter;
  readonly #ledgerFlushFailures: Counter;
  readonly #ledgerFlushDuration: Histogram;
  readonly #ledgerRows: Counter;

  constructor() {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'hermes_router_requests_total',
      help: 'Client requests finished, by HTTP status, inbound API format and model',
      labelNames: ['status', 'format', 'model'],
      registers,
    });
    this.#errors = new Counter({
      name: 'hermes_router_errors_total',
      help: 'Failed client requests by error class',
      labelNames: ['class'],
      registers,
    });
    this.#attempts = new Counter({
      name: 'hermes_router_attempts_total',
      help: 'Upstream attempts by provider and outcome (ok or error class)',
      labelNames: ['provider', 'outcome'],
      registers,
    });
    this.#failovers = new Counter({
      name: 'hermes_router_failovers_total',
      help: 'Client requests that needed more than one upstream attempt',
      labelNames: ['model'],
      registers,
    });
    this.#tokens = new Counter({
      name: 'hermes_router_tokens_total',
      help: 'Tokens by kind (cache and reasoning tokens are subsets of input and output)',
      labelNames: ['kind', 'model'],
      registers,
    });
    this.#estimatedRequests = new Counter({
      name: 'hermes_router_usage_estimated_total',
      help: 'Requests whose usage was estimated because the provider reported none',
      labelNames: ['model'],
      registers,
    });
    this.#cost = new Counter({
      name: 'hermes_router_cost_usd_total',
      help: 'Cost of priced requests in US dollars',
      labelNames: ['model'],
      registers,
    });
    this.#unpriced = new Counter({
      name: 'hermes_router_unpriced_requests_total',
      help: 'Requests with usage but no known price (not counted in cost)',
      labelNames: ['model'],
      registers,
    });
    this.#timeToFirstByte = new Histogram({
      name: 'hermes_router_time_to_first_byte_seconds',
      help: 'From request arrival to the first byte sent to the client',
      labelNames: ['format', 'streaming'],
      buckets: latencyBuckets,
      registers,
    });
    this.#duration = new Histogram({
      name: 'hermes_router_request_duration_seconds',
      help: 'From request arrival to the last byte sent to the client',
      labelNames: ['format', 'streaming'],
      buckets: latencyBuckets,
      registers,
    });
    this.#overhead = new Histogram({
      name: 'hermes_router_overhead_seconds',
      help: 'Time spent in the gateway itself, upstream time excluded',
      labelNames: ['format'],
      buckets: overheadBuckets,
      registers,
    });
    this.#inFlight = new Gauge({
      name: 'hermes_router_in_flight_requests',
      help: 'Client requests being served now',
      registers,
    });
    this.#circuits = new Gauge({
      name: 'hermes_router_circuit_state',
      help: 'Circuit breaker state per provider and model: 0 closed, 1 half-open, 2 open',
      labelNames: ['circuit'],
      registers,
    });
    this.#ledgerQueue = new Gauge({
      name: 'hermes_router_ledger_queue_length',
      help: 'Finished requests waiting to be written to the ledger',
      registers,
    });
    this.#ledgerDropped = new Counter({
      name: 'hermes_router_ledger_dropped_total',
      help: 'Ledger rows dropped because the queue was full while the store was failing',
      registers,
    });
    this.#ledgerFlushFailures = new Counter({
      name: 'hermes_router_ledger_flush_failures_total',
      help: 'Ledger batches the store failed to write (they are retried)',
      registers,
    });
    this.#ledgerFlushDuration = new Histogram({
      name: 'hermes_router_ledger_flush_seconds',
      help: 'Time to write one ledger batch',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    this.#ledgerRows = new Counter({
      name: 'hermes_router_ledger_rows_written_total',
      help: 'Request rows written to the ledger store',
      registers,
    });
  }

  startRequest(): void {
    this.#inFlight.inc();
  }

  endRequest(): void {
    this.#inFlight.dec();
  }

  /** `circuit` is the breaker's key (provider and model). */
  setCircuitState(circuit: string, state: CircuitState): void {
    this.#circuits.set({ circuit }, circuitStateValue[state]);
  }

  /** One finished request, after pricing and estimation. */
  observe(record: RequestRecord): void {
    const model = record.servedModel ?? unservedLabel;
    const format = record.inboundFormat;
    const streaming = record.streaming ? 'true' : 'false';
    this.#requests.inc({ status: String(record.status), format, model });
    if (record.errorClass !== undefined) this.#errors.inc({ class: record.errorClass });
    for (const attempt of record.attempts) {
      this.#attempts.inc({ provider: attempt.provider, outcome: attempt.errorClass ?? (attempt.status < 400 ? 'ok' : 'error') });
    }
    if (failedOver(record)) this.#failovers.inc({ model });
    if (record.usage !== undefined) {
      const counts = {
        input: record.usage.inputTokens,
        output: record.usage.outputTokens,
        cache_read: record.usage.cacheReadTokens,
        cache_write: record.usage.cacheWriteTokens,
        reasoning: record.usage.reasoningTokens,
      } satisfies Record<(typeof tokenKinds)[number], number>;
      for (const kind of tokenKinds) if (counts[kind] > 0) this.#tokens.inc({ kind, model }, counts[kind]);
      if (record.usageEstimated) this.#estimatedRequests.inc({ model });
    }
    if (record.costUsd === null) {
      if (record.usage !== undefined) this.#unpriced.inc({ model });
    } else if (record.costUsd > 0) {
      this.#cost.inc({ model }, record.costUsd);
    }
    if (record.timeToFirstByteMs !== undefined) {
      this.#timeToFirstByte.observe({ format, streaming }, record.timeToFirstByteMs / 1000);
    }
    this.#duration.observe({ format, streaming }, record.totalMs / 1000);
    this.#overhead.observe({ format }, record.overheadMs / 1000);
  }

  setLedgerQueueLength(length: number): void {
    this.#ledgerQueue.set(length);
  }

  ledgerDropped(count: number): void {
    this.#ledgerDropped.inc(count);
  }

  ledgerFlushed(rows: number, seconds: number): void {
    this.#ledgerRows.inc(rows);
    this.#ledgerFlushDuration.observe(seconds);
  }

  ledgerFlushFailed(): void {
    this.#ledgerFlushFailures.inc();
  }
}
