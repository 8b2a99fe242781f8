import * as promClient from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Counter, Gauge, Histogram, Registry } from './prometheus.js';

// The metric classes are loaded by file path; a prom-client release that moves a file must fail here.
describe('prom-client loaded piecewise', () => {
  it('gives the same classes as the package index', () => {
    expect(Registry).toBe(promClient.Registry);
    expect(Counter).toBe(promClient.Counter);
    expect(Gauge).toBe(promClient.Gauge);
    expect(Histogram).toBe(promClient.Histogram);
  });

  it('writes a registered counter in the text format', async () => {
    const registry = new Registry();
    new Counter({ name: 'piecewise_total', help: 'counted', registers: [registry] }).inc(2);
    expect(await registry.metrics()).toContain('piecewise_total 2');
  });
});
