import { resolve } from 'node:path';
import { shippedDifficultyEstimator } from '../classify/difficulty/estimate.js';
import { readDifficultyCases } from '../eval/difficulty-cases.js';
import type { DifficultyEvalReport } from '../eval/difficulty-run.js';
import { crossValidatedScores, runDifficultyEval } from '../eval/difficulty-run.js';
import { flagsOrExit } from './arguments.js';
import type { Command, CommandContext } from './command.js';

const usage = [
  'Usage: hermes-router eval difficulty --cases FILE [--cross-validate K] [--json]',
  '',
  'Scores each prompt with the difficulty model (higher = send to the strong model) and prints RouteLLM',
  'metrics per benchmark and overall. The shipped weights were trained on the RouteLLM dev split: on that file',
  'use --cross-validate 5 for held-out numbers (each row scored by a model trained without its fold).',
  '',
].join('\n');

/** `hermes-router eval difficulty`: APGR, CPT and strong share at 95% quality (EVALS.md keys). */
export const evalDifficultyCommand: Command = {
  name: 'eval difficulty',
  summary: 'Measure the difficulty model as a strong/weak router (RouteLLM metrics)',
  async run(args: string[], context: CommandContext): Promise<number> {
    const values = flagsOrExit(args, { cases: { type: 'string' }, 'cross-validate': { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } }, usage, context, true);
    if (typeof values === 'number') return values;
    const folds = values['cross-validate'] === undefined ? undefined : Number(values['cross-validate']);
    if (!values.cases || (folds !== undefined && (!Number.isInteger(folds) || folds < 2))) {
      context.stderr.write(`${values.cases ? '--cross-validate needs an integer ≥ 2' : '--cases is required'}\n${usage}`);
      return 2;
    }
    try {
      const cases = readDifficultyCases(resolve(context.cwd, values.cases));
      const estimator = shippedDifficultyEstimator();
      const score = (prompt: string) => estimator.estimate(prompt).probability;
      let report: DifficultyEvalReport;
      if (folds) {
        context.stderr.write(`eval difficulty: training ${folds} fold models on ${cases.length} rows\n`);
        report = runDifficultyEval(cases, score, 'cross-validated', crossValidatedScores(cases, folds));
      } else {
        report = runDifficultyEval(cases, score);
      }
      context.stdout.write(renderTable(report));
      if (values.json) context.stdout.write(`${JSON.stringify(report)}\n`);
      return 0;
    } catch (error) {
      context.stderr.write(`eval difficulty: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  },
};

function renderTable(report: DifficultyEvalReport): string {
  const columns = ['cases', 'weak_quality', 'strong_quality', 'apgr', 'cpt50', 'cpt80', 'cpt95', 'strong_share_at_95pct_quality', 'random_strong_share_at_95pct_quality'] as const;
  const header = ['benchmark'.padEnd(10), ...columns.map((column) => column.replace('_at_95pct_quality', '@95').padStart(14))].join(' ');
  const lines = [`scoring: ${report.scoring}`, header];
  for (const name of ['gsm8k', 'mmlu', 'mt_bench', 'overall'] as const) {
    const metrics = report[name];
    if (metrics) lines.push([name.padEnd(10), ...columns.map((column) => String(metrics[column]).padStart(14))].join(' '));
  }
  lines.push(`p50_ms ${report.p50_ms}  p99_ms ${report.p99_ms}`);
  return `${lines.join('\n')}\n`;
}
