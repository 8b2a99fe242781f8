import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from './command.js';
import { evalDifficultyCommand } from './eval-difficulty.js';
import { evalTopicsCommand } from './eval-topics.js';

async function runJson(command: { run(args: string[], context: CommandContext): Promise<number> }, args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let output = '';
  stdout.on('data', (chunk) => (output += String(chunk)));
  const code = await command.run([...args, '--json'], { stdout, stderr, env: {}, cwd: process.cwd() });
  const lines = output.trim().split('\n');
  return { code, json: JSON.parse(lines[lines.length - 1] ?? '{}') as Record<string, unknown> };
}

function writeLines(rows: object[]): string {
  const directory = mkdtempSync(join(tmpdir(), 'hermes-eval-'));
  const path = join(directory, 'cases.jsonl');
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n'));
  return path;
}

describe('eval topics --json', () => {
  it('prints every EVALS.md key for topic cases', async () => {
    const path = writeLines([
      { id: 'a', messages: [{ role: 'user', content: 'write a short fantasy scene' }], topic: 'writing_language' },
      { id: 'b', messages: [{ role: 'user', content: 'thanks' }], topic: 'none' },
      { id: 'c', prompt: 'my python script throws KeyError when reading the config dict', topic: 'software_it', acceptable_topics: ['none'] },
    ]);
    const { code, json } = await runJson(evalTopicsCommand, ['--cases', path]);
    expect(code).toBe(0);
    for (const key of ['accuracy', 'strict_accuracy', 'macro_f1', 'none_precision', 'none_recall', 'per_topic', 'p99_ms']) expect(json).toHaveProperty(key);
    expect(json.cases).toBe(3);
    expect(json.accuracy).toBe(1);
  });

  it('prints route_accuracy and oos_rejection with --routes-from', async () => {
    const train = [
      ...['what is my balance', 'transfer money to savings', 'show my last transactions', 'how much is in checking', 'send 20 dollars to my brother'].map((text) => ({ split: 'train', text, domain: 'banking' })),
      ...['set an alarm for 7', 'what time is it in tokyo', 'set a timer for ten minutes', 'remind me to call mom', 'wake me up at six'].map((text) => ({ split: 'train', text, domain: 'utility' })),
      ...['how do I bake bread', 'who painted the mona lisa'].map((text) => ({ split: 'oos_train', text, domain: null })),
    ];
    const cases = [
      ...train,
      { split: 'val', text: 'transfer fifty dollars to savings', domain: 'banking' },
      { split: 'val', text: 'set an alarm for eight', domain: 'utility' },
      { split: 'oos_val', text: 'who painted the starry night', domain: null },
    ];
    const { code, json } = await runJson(evalTopicsCommand, ['--cases', writeLines(cases), '--routes-from', writeLines(train)]);
    expect(code).toBe(0);
    expect(json).toMatchObject({ cases: 3, in_scope: 2, out_of_scope: 1 });
    for (const key of ['route_accuracy', 'oos_rejection', 'p99_ms']) expect(typeof json[key]).toBe('number');
  });
});

describe('eval difficulty --json', () => {
  it('prints per-benchmark and overall metrics with every EVALS.md key', async () => {
    const rows = [
      { benchmark: 'gsm8k', prompt: 'Tom has 3 apples and buys 4 more. How many apples?', weak_correct: true, strong_correct: true },
      { benchmark: 'gsm8k', prompt: 'A shop sells pens at 3 for $2. How much do 45 pens cost after a 15% discount?', weak_correct: false, strong_correct: true },
      { benchmark: 'mmlu', prompt: 'Which amendment protects against self-incrimination?\nA. First\nB. Fifth\nC. Sixth\nD. Tenth\nAnswer:', weak_correct: false, strong_correct: true },
      { benchmark: 'mmlu', prompt: 'What is the chemical symbol for gold?\nA. Ag\nB. Au\nC. Gd\nD. Go\nAnswer:', weak_correct: true, strong_correct: true },
      { benchmark: 'mt_bench', prompt: 'Write a haiku about autumn.', weak_score: 8, strong_score: 9 },
    ];
    const { code, json } = await runJson(evalDifficultyCommand, ['--cases', writeLines(rows)]);
    expect(code).toBe(0);
    for (const benchmark of ['gsm8k', 'mmlu', 'mt_bench', 'overall']) {
      const metrics = json[benchmark] as Record<string, unknown>;
      for (const key of ['apgr', 'cpt50', 'cpt80', 'cpt95', 'strong_share_at_95pct_quality', 'random_strong_share_at_95pct_quality']) expect(typeof metrics[key]).toBe('number');
    }
    expect((json.overall as { cases: number }).cases).toBe(5);
    expect(typeof json.p99_ms).toBe('number');
  });
});
