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
  it('--retrieval ranks each pool of --pool tools and reports recall, median_reduction, mean_kept and p99_ms', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'eval-retrieval-'));
    const topics = ['weather forecast city', 'stock share price ticker', 'calendar event meeting', 'email message recipient', 'translate language text', 'merge pdf documents', 'currency money exchange', 'flight airline airport', 'recipe cooking ingredients', 'invoice customer billing', 'timezone clock hours', 'resize image pixels', 'contact crm record', 'blame commit line', 'parcel shipment tracking', 'movie cinema showtimes'];
    const catalogue = Object.fromEntries(
      topics.map((topic, index) => {
        const name = `${topic.split(' ')[0]}_tool`;
        return [`${name}#${index}`, { name, description: `Works with ${topic}.`, parameters: { type: 'dict', properties: { query: { type: 'string', description: topic } } } }];
      }),
    );
    const cases = join(directory, 'narrowing.jsonl');
    const cataloguePath = join(directory, 'catalogue.json');
    writeFileSync(cataloguePath, JSON.stringify(catalogue));
    writeFileSync(cases, [
      JSON.stringify({ id: 'one', messages: [{ role: 'user', content: 'what is the weather forecast for Lisbon tomorrow?' }], candidates: ['weather_tool#0', 'stock_tool#1'], required: ['weather_tool#0'] }),
      JSON.stringify({ id: 'two', messages: [{ role: 'user', content: 'convert 100 euros with the currency exchange rate' }], candidates: ['currency_tool#6'], required: ['currency_tool#6'] }),
    ].join('\n'));
    const stdout = capture();
    const code = await evalToolsCommand.run(['--retrieval', cases, '--catalogue', cataloguePath, '--pool', '14', '--json'], { stdout: stdout.stream, stderr: capture().stream, env: {}, cwd: process.cwd() });
    expect(code).toBe(0);
    const report = JSON.parse(stdout.text().trim().split('\n').at(-1)!) as Record<string, number>;
    expect(report).toMatchObject({ cases: 2, pool: 14, recall: 1 });
    expect(report.mean_kept).toBeLessThan(14);
    expect(report.median_reduction).toBeGreaterThan(0);
    expect(report.p99_ms).toBeGreaterThan(0);
    expect(report.p50_cpu_ms).toBeGreaterThanOrEqual(0);
    expect(report.p99_cpu_ms).toBeGreaterThanOrEqual(report.p50_cpu_ms!);
    expect(await evalToolsCommand.run(['--retrieval', cases, '--pool', '14'], { stdout: capture().stream, stderr: capture().stream, env: {}, cwd: process.cwd() })).toBe(2);
  });

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
