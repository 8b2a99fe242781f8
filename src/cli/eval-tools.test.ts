import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { evalToolsCommand } from './eval-tools.js';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('eval tools command', () => {
  it('prints a table and, with --json, one JSON object with the EVALS.md keys on the last line', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'eval-tools-'));
    const cases = join(directory, 'cases.jsonl');
    writeFileSync(cases, [JSON.stringify({ id: 'a', prompt: 'run the tests', required_toolsets: ['terminal'], critical: true }), JSON.stringify({ id: 'b', registry: 'full', messages: [{ role: 'user', content: 'play some jazz on spotify' }], required_toolsets: ['spotify'] })].join('\n'));
    const stdout = capture();
    const stderr = capture();
    const code = await evalToolsCommand.run(['--cases', cases, '--registries', join(process.cwd(), 'data/tool-routing/registries'), '--json'], { stdout: stdout.stream, stderr: stderr.stream, env: {}, cwd: process.cwd() });
    expect(code).toBe(0);
    const lines = stdout.text().trim().split('\n');
    const report = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['cases', 'case_recall', 'critical_case_recall', 'required_recall', 'precision', 'full_fallback_rate', 'median_reduction', 'mean_reduction', 'p50_ms', 'p99_ms', 'misses']));
    expect(report['cases']).toBe(2);
    expect(lines[0]).toMatch(/^cases\s+2$/);
  });

  it('exits 2 without --cases', async () => {
    const stdout = capture();
    const stderr = capture();
    expect(await evalToolsCommand.run([], { stdout: stdout.stream, stderr: stderr.stream, env: {}, cwd: process.cwd() })).toBe(2);
    expect(stderr.text()).toContain('--cases is required');
  });
});
