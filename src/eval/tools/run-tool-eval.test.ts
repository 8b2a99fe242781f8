import { describe, expect, it } from 'vitest';
import { hermesTools } from '../../tools/test-support/fixtures.js';
import { runToolEval } from './run-tool-eval.js';
import { caseMessages, parseToolCases } from './tool-cases.js';

const lines = [
  { id: 'a', registry: 'cli', messages: [{ role: 'user', content: 'run the tests and fix what fails' }], required_toolsets: ['terminal', 'file'], critical: true },
  { id: 'b', prompt: 'write a haiku about rain', required_toolsets: [] },
  { id: 'c', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'data:,' } }] }], required_any: [['vision', 'browser']] },
  { id: 'd', prompt: 'x'.repeat(7000), required_toolsets: ['web'] },
].map((line) => JSON.stringify(line));

describe('runToolEval', () => {
  const cases = parseToolCases(lines.join('\n'), 'inline');

  it('reads both the messages and the prompt formats, image parts included', () => {
    expect(caseMessages(cases[1]!)).toEqual([{ role: 'user', text: 'write a haiku about rain', toolCallNames: [], hasImage: false }]);
    expect(caseMessages(cases[2]!)[0]).toMatchObject({ text: 'what is this?', hasImage: true });
  });

  it('reports every EVALS.md key with values in range', () => {
    const report = runToolEval(cases, { toolsFor: (registry) => hermesTools(registry === 'full' ? 'full' : 'cli'), timingRuns: 1 });
    for (const key of ['cases', 'case_recall', 'critical_case_recall', 'required_recall', 'precision', 'full_fallback_rate', 'median_reduction', 'mean_reduction', 'p50_ms', 'p99_ms', 'misses']) expect(report).toHaveProperty(key);
    expect(report.cases).toBe(4);
    expect(report.full_fallback_rate).toBe(0.25);
    for (const key of ['case_recall', 'critical_case_recall', 'required_recall', 'precision', 'median_reduction', 'mean_reduction'] as const) {
      expect(report[key]).toBeGreaterThanOrEqual(0);
      expect(report[key]).toBeLessThanOrEqual(1);
    }
    expect(report.case_recall).toBe(1);
    expect(report.misses).toEqual([]);
  });

  it('counts a missed required toolset as a miss', () => {
    const wrong = parseToolCases(JSON.stringify({ id: 'z', prompt: 'write a haiku about rain', required_toolsets: ['cronjob'], critical: true }), 'inline');
    const report = runToolEval(wrong, { toolsFor: () => hermesTools('cli'), timingRuns: 1 });
    expect(report.misses).toEqual(['z']);
    expect(report.critical_case_recall).toBe(0);
  });
});
