import { describe, expect, it } from 'vitest';
import { makeRequestRecord } from '../store/ledger-store.fixtures.js';
import { GatewayMetrics } from './metrics.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the Prometheus text format (0.0.4) as prom-client writes it: every sample belongs to a
 * family declared by `# TYPE`, every label value is quoted, every value is a number.
 */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const typeLine = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (typeLine) {
      types.set(typeLine[1] ?? '', typeLine[2] ?? '');
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    if (!sample) throw new Error(`unparseable line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = sample[2] ?? '';
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    let consumed = 0;
    for (const match of labelText.matchAll(labelPattern)) {
      labels[match[1] ?? ''] = match[2] ?? '';
      consumed += match[0].length;
    }
    if (consumed !== labelText.length) throw new Error(`bad labels: ${line}`);
    const name = sample[1] ?? '';
    const family = name.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(name) && !types.has(family)) throw new Error(`sample without TYPE: ${line}`);
    samples.push({ name, labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

function find(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

describe('GatewayMetrics', () => {
  it('exposes every series in a text that parses, with the values observed', async () => {
    const metrics = new GatewayMetrics();
    metrics.startRequest();
    metrics.startRequest();
    metrics.endRequest();
    metrics.setCircuitState('openai/gpt-4o', 'open');
    metrics.setCircuitState('anthropic/claude-sonnet-4-5', 'half-open');
    const ok = makeRequestRecord({ requestId: 'ok', costUsd: 0.01, timeToFirstByteMs: 300, overheadMs: 2 });
    const failover = makeRequestRecord({
      requestId: 'failover',
      costUsd: 0.02,
      attempts: [
        { provider: 'openai', model: 'gpt-4o', keyId: 'k', startedAt: 0, durationMs: 5, status: 429, errorClass: 'rate_limited' },
        { provider: 'openai', model: 'gpt-4o', keyId: 'k2', startedAt: 5, durationMs: 5, status: 200 },
      ],
    });
    const failed = makeRequestRecord({
      requestId: 'failed',
      status: 503,
      errorClass: 'unavailable',
      costUsd: 0,
      attempts: [],
    });
    delete failed.usage;
    delete failed.servedModel;
    const unpriced = makeRequestRecord({ requestId: 'unpriced', servedModel: 'mystery', costUsd: null });
    for (const record of [ok, failover, failed, unpriced]) metrics.observe(record);

    expect(metrics.registry.contentType).toContain('text/plain');
    const { types, samples } = parseExposition(await metrics.registry.metrics());
    expect(types.get('hermes_router_requests_total')).toBe('counter');
    expect(types.get('hermes_router_time_to_first_byte_seconds')).toBe('histogram');

    expect(find(samples, 'hermes_router_requests_total', { status: '200', format: 'openai-chat', model: 'gpt-4o' })[0]?.value).toBe(2);
    expect(find(samples, 'hermes_router_requests_total', { status: '503', model: '(unserved)' })[0]?.value).toBe(1);
    expect(find(samples, 'hermes_router_errors_total', { class: 'unavailable' })[0]?.value).toBe(1);
    expect(find(samples, 'hermes_router_attempts_total', { provider: 'openai', outcome: 'rate_limited' })[0]?.value).toBe(1);
    expect(find(samples, 'hermes_router_attempts_total', { provider: 'openai', outcome: 'ok' })[0]?.value).toBe(3);
    expect(find(samples, 'hermes_router_failovers_total')[0]?.value).toBe(1);
    const input = ok.usage?.inputTokens ?? 0;
    expect(find(samples, 'hermes_router_tokens_total', { kind: 'input', model: 'gpt-4o' })[0]?.value).toBe(input * 2);
    expect(find(samples, 'hermes_router_cost_usd_total', { model: 'gpt-4o' })[0]?.value).toBeCloseTo(0.03, 12);
    expect(find(samples, 'hermes_router_unpriced_requests_total', { model: 'mystery' })[0]?.value).toBe(1);
    expect(find(samples, 'hermes_router_in_flight_requests')[0]?.value).toBe(1);
    expect(find(samples, 'hermes_router_circuit_state', { circuit: 'openai/gpt-4o' })[0]?.value).toBe(2);
    expect(find(samples, 'hermes_router_circuit_state', { circuit: 'anthropic/claude-sonnet-4-5' })[0]?.value).toBe(1);

    const ttfbCount = find(samples, 'hermes_router_time_to_first_byte_seconds_count');
    expect(ttfbCount.reduce((total, sample) => total + sample.value, 0)).toBe(4);
    const overheadBuckets = find(samples, 'hermes_router_overhead_seconds_bucket', { format: 'openai-chat' });
    const counts = overheadBuckets.map((sample) => sample.value);
    expect(counts).toEqual([...counts].sort((left, right) => left - right));
    expect(find(overheadBuckets, 'hermes_router_overhead_seconds_bucket', { le: '+Inf' })[0]?.value).toBe(4);
    expect(find(overheadBuckets, 'hermes_router_overhead_seconds_bucket', { le: '0.002' })[0]?.value).toBe(1);
  });

  it('keeps each instance in its own registry', async () => {
    const first = new GatewayMetrics();
    const second = new GatewayMetrics();
    first.startRequest();
    const secondText = await second.registry.getSingleMetricAsString('hermes_router_in_flight_requests');
    expect(secondText).toMatch(/hermes_router_in_flight_requests 0$/m);
  });
});
