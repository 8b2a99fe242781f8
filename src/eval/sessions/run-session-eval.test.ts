import { describe, expect, it } from 'vitest';
import { defaultRegistriesDirectory } from '../tools/registries.js';
import { runSessionEval } from './run-session-eval.js';
import { scenarioSchema } from './scenarios.js';

const scenarios = [
  { id: 'tests-then-web', turns: [{ user: 'run the test suite and show me what fails', needs: ['terminal'] }, { user: 'search the web for that error', needs: ['web'] }] },
  { id: 'pruned-call', turns: [{ user: 'fix the typo in README.md', needs: ['file'] }, { user: 'check the rendered page in the browser', needs: ['browser'], call_pruned: true }] },
].map((scenario) => scenarioSchema.parse(scenario));

describe('eval sessions', () => {
  it('runs scenarios through the gateway and reports the EVALS.md keys', async () => {
    const report = await runSessionEval(scenarios, defaultRegistriesDirectory());
    for (const key of ['scenarios', 'task_success', 'unrecovered', 'total_reduction', 'cache_stable']) expect(report).toHaveProperty(key);
    expect(report.scenarios).toBe(2);
    expect(report.task_success).toBe(1);
    expect(report.unrecovered).toBe(0);
    // The web need of the first scenario's second turn is anticipated: no hidden re-issue for it.
    expect(report.reissues).toBe(0);
    expect(report.total_reduction).toBeGreaterThan(0.3);
    expect(report.cache_stable).toBeGreaterThan(0.9);
    // Without anticipation the same need is a hidden re-issue and a surface change (a cache break).
    const without = report.without_anticipation;
    expect(without.reissues).toBeGreaterThanOrEqual(1);
    expect(without.surface_changes).toBeGreaterThanOrEqual(without.reissues);
    expect(without.reissues_per_turn).toBeCloseTo(without.reissues / report.turns);
    // Narrowing a 16K-token surface saves more on first writes than the late growth costs.
    expect(report.cached_cost_ratio).toBeGreaterThan(0);
    expect(report.cached_cost_ratio).toBeLessThan(1);
    expect(report.baseline_cached_share).toBeGreaterThan(0.5);
    expect(report.cached_cost_ratio).toBeLessThan(without.cached_cost_ratio);
  });
});
