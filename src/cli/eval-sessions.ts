import { resolve } from 'node:path';
import { defaultRegistriesDirectory } from '../eval/tools/registries.js';
import { bfclSessions } from '../eval/sessions/bfcl-scenarios.js';
import { readScenarios } from '../eval/sessions/scenarios.js';
import type { Scenario } from '../eval/sessions/scenarios.js';
import { runSessionEval } from '../eval/sessions/run-session-eval.js';
import type { Command } from './command.js';
import { flagsOrExit } from './arguments.js';

const usage =
  'Usage: hermes-router eval sessions --scenarios FILE [--registries DIR] [--json]\n' +
  '       hermes-router eval sessions --bfcl FILE --bfcl-toolsets FILE [--json]   (BFCL multi-turn rows as scenarios)\n';

/** `hermes-router eval sessions`: multi-turn tool routing through the real gateway (keys as in EVALS.md). */
export const evalSessionsCommand: Command = {
  name: 'eval sessions',
  summary: 'Measure multi-turn tool routing through the gateway against a scripted model',
  async run(args, context) {
    const values = flagsOrExit(args, { scenarios: { type: 'string' }, registries: { type: 'string' }, bfcl: { type: 'string' }, 'bfcl-toolsets': { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } }, usage, context);
    if (typeof values === 'number') return values;
    let scenarios: Scenario[];
    let registries: string;
    let toolRouting: Record<string, unknown> = {};
    if (values.bfcl) {
      if (!values['bfcl-toolsets']) {
        context.stderr.write(`--bfcl needs --bfcl-toolsets\n${usage}`);
        return 2;
      }
      try {
        ({ scenarios, registries, toolRouting } = bfclSessions(resolve(context.cwd, values.bfcl), resolve(context.cwd, values['bfcl-toolsets'])));
      } catch (error) {
        context.stderr.write(`eval sessions: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      }
    } else if (values.scenarios) {
      registries = values.registries ? resolve(context.cwd, values.registries) : defaultRegistriesDirectory();
      try {
        scenarios = readScenarios(resolve(context.cwd, values.scenarios));
      } catch (error) {
        context.stderr.write(`eval sessions: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      }
    } else {
      context.stderr.write(`--scenarios (or --bfcl) is required\n${usage}`);
      return 2;
    }
    const progressEvery = Math.max(1, Math.ceil(scenarios.length / 10));
    const report = await runSessionEval(
      scenarios,
      registries,
      (mode, done, total) => {
        if (done % progressEvery === 0 || done === total) context.stderr.write(`eval sessions (${mode}): ${done}/${total} scenarios\n`);
      },
      toolRouting,
    );
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
    const without = report.without_anticipation;
    const pair = (withIt: string, withoutIt: string) => `${withIt.padStart(8)}  ${withoutIt.padStart(8)}`;
    rows.push(
      ['', pair('anticip.', 'without')],
      ['task_success', pair(report.task_success.toFixed(3), without.task_success.toFixed(3))],
      ['unrecovered', pair(String(report.unrecovered), String(without.unrecovered))],
      ['reissues', pair(String(report.reissues), String(without.reissues))],
      ['reissues_per_turn', pair(report.reissues_per_turn.toFixed(3), without.reissues_per_turn.toFixed(3))],
      ['surface_changes', pair(String(report.surface_changes), String(without.surface_changes))],
      ['cached_cost_ratio', pair(report.cached_cost_ratio.toFixed(3), without.cached_cost_ratio.toFixed(3))],
      ['cached share of prompt', pair(report.cached_share.toFixed(3), without.cached_share.toFixed(3))],
      ['  routing off', report.baseline_cached_share.toFixed(3)],
    );
    const width = Math.max(...rows.map(([name]) => name.length));
    for (const [name, value] of rows) context.stdout.write(`${name.padEnd(width)}  ${value}\n`);
    if (report.failures.length > 0) context.stdout.write(`unmet needs (${report.failures.length}): ${report.failures.slice(0, 20).join(', ')}\n`);
    if (values.json) context.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  },
};
