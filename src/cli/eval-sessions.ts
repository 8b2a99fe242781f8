import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultRegistriesDirectory } from '../eval/tools/registries.js';
import { readScenarios } from '../eval/sessions/scenarios.js';
import { runSessionEval } from '../eval/sessions/run-session-eval.js';
import type { Command } from './command.js';

const usage = 'Usage: hermes-router eval sessions --scenarios FILE [--registries DIR] [--json]\n';

/** `hermes-router eval sessions`: multi-turn tool routing through the real gateway (keys as in EVALS.md). */
export const evalSessionsCommand: Command = {
  name: 'eval sessions',
  summary: 'Measure multi-turn tool routing through the gateway against a scripted model',
  async run(args, context) {
    let values;
    try {
      ({ values } = parseArgs({
        args,
        options: { scenarios: { type: 'string' }, registries: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
        strict: true,
      }));
    } catch (error) {
      context.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
      return 2;
    }
    if (values.help) {
      context.stdout.write(usage);
      return 0;
    }
    if (!values.scenarios) {
      context.stderr.write(`--scenarios is required\n${usage}`);
      return 2;
    }
    const registries = values.registries ? resolve(context.cwd, values.registries) : defaultRegistriesDirectory();
    const scenarios = readScenarios(resolve(context.cwd, values.scenarios));
    const report = await runSessionEval(scenarios, registries, (mode, done, total) => {
      context.stderr.write(`eval sessions (${mode}): ${done}/${total} scenarios\n`);
    });
    const rows: [string, string][] = [
      ['scenarios', String(report.scenarios)],
      ['task_success', report.task_success.toFixed(3)],
      ['unrecovered', String(report.unrecovered)],
      ['total_reduction', report.total_reduction.toFixed(3)],
      ['cache_stable', report.cache_stable.toFixed(3)],
      ['turns / upstream calls', `${report.turns} / ${report.upstream_calls}`],
      ['recovery re-issues', String(report.recoveries)],
      ['tools tokens routed / full', `${report.routed_tools_tokens} / ${report.full_tools_tokens}`],
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    for (const [name, value] of rows) context.stdout.write(`${name.padEnd(width)}  ${value}\n`);
    if (report.failures.length > 0) context.stdout.write(`unmet needs: ${report.failures.join(', ')}\n`);
    if (values.json) context.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  },
};
