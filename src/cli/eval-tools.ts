import { resolve } from 'node:path';
import { readBfcl, runBfclEval } from '../eval/tools/bfcl.js';
import { readRetrieval, runRetrievalEval } from '../eval/tools/retrieval.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../eval/tools/registries.js';
import type { ToolEvalReport } from '../eval/tools/run-tool-eval.js';
import { runToolEval } from '../eval/tools/run-tool-eval.js';
import { readToolCases } from '../eval/tools/tool-cases.js';
import type { Command, CommandContext } from './command.js';
import { flagsOrExit } from './arguments.js';

const usage = [
  'Usage: hermes-router eval tools --cases FILE [--registries DIR] [--json] [--verbose]',
  '       hermes-router eval tools --bfcl FILE --bfcl-toolsets FILE [--bfcl-offer involved|all] [--json]',
  '       hermes-router eval tools --retrieval FILE --catalogue FILE --pool N [--json]',
  '',
].join('\n');

/** `hermes-router eval tools`: first-turn tool routing on labelled cases (keys as in EVALS.md). */
export const evalToolsCommand: Command = {
  name: 'eval tools',
  summary: 'Measure first-turn tool routing on labelled cases',
  async run(args: string[], context: CommandContext): Promise<number> {
    const values = flagsOrExit(args, { cases: { type: 'string' }, bfcl: { type: 'string' }, 'bfcl-toolsets': { type: 'string' }, 'bfcl-offer': { type: 'string', default: 'involved' }, retrieval: { type: 'string' }, catalogue: { type: 'string' }, pool: { type: 'string' }, registries: { type: 'string' }, json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } }, usage, context);
    if (typeof values === 'number') return values;
    if (values.retrieval) return runRetrieval(values.retrieval, values.catalogue, values.pool, values.json, context);
    if (values.bfcl) return runBfcl(values.bfcl, values['bfcl-toolsets'], values['bfcl-offer'], values.json, context);
    if (!values.cases) {
      context.stderr.write(`--cases is required\n${usage}`);
      return 2;
    }
    const registries = values.registries ? resolve(context.cwd, values.registries) : defaultRegistriesDirectory();
    let report: ToolEvalReport;
    try {
      const cases = readToolCases(resolve(context.cwd, values.cases));
      const progressEvery = Math.max(100, Math.ceil(cases.length / 10));
      report = runToolEval(cases, {
        toolsFor: (registry) => loadRegistryTools(registries, registry),
        onProgress: (done, total) => {
          if (done % progressEvery === 0 && done < total) context.stderr.write(`eval tools: ${done}/${total} cases\n`);
        },
        onCase: values.verbose
          ? (outcome) => {
              if (!outcome.recalled || outcome.decision.outcome === 'full') {
                context.stderr.write(`${outcome.recalled ? 'full' : 'MISS'} ${outcome.id} ${outcome.decision.reason} kept=[${outcome.keptToolsets.join(',')}]\n`);
              }
            }
          : undefined,
      });
    } catch (error) {
      return failed(error, context);
    }
    context.stdout.write(renderTable(report));
    if (values.json) context.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  },
};

async function runBfcl(rowsPath: string, toolsetsPath: string | undefined, offer: string | undefined, json: boolean, context: CommandContext): Promise<number> {
  if (!toolsetsPath || (offer !== 'involved' && offer !== 'all')) {
    context.stderr.write(`--bfcl needs --bfcl-toolsets FILE, and --bfcl-offer is involved or all\n${usage}`);
    return 2;
  }
  try {
    const { rows, classes } = readBfcl(resolve(context.cwd, rowsPath), resolve(context.cwd, toolsetsPath));
    context.stderr.write(`eval tools: ${rows.length} BFCL rows, offering ${offer} classes\n`);
    writeReport(runBfclEval(rows, classes, offer), json, context);
    return 0;
  } catch (error) {
    return failed(error, context);
  }
}

async function runRetrieval(casesPath: string, cataloguePath: string | undefined, poolText: string | undefined, json: boolean, context: CommandContext): Promise<number> {
  const pool = Number(poolText);
  if (!cataloguePath || !Number.isInteger(pool) || pool < 1) {
    context.stderr.write(`--retrieval needs --catalogue FILE and --pool N (a positive whole number)\n${usage}`);
    return 2;
  }
  try {
    const { cases, catalogue } = readRetrieval(resolve(context.cwd, casesPath), resolve(context.cwd, cataloguePath));
    context.stderr.write(`eval tools: ${cases.length} retrieval cases, pools of ${pool} tools\n`);
    writeReport(runRetrievalEval(cases, catalogue, pool), json, context);
    return 0;
  } catch (error) {
    return failed(error, context);
  }
}

/** A flat report as `key  value` lines (long lists cut at 12, with the rest counted), then the JSON line. */
function writeReport(report: object, json: boolean, context: CommandContext): void {
  const entries = Object.entries(report);
  const width = Math.max(...entries.map(([key]) => key.length));
  const shown = (value: unknown): string => {
    if (Array.isArray(value)) return value.length === 0 ? '-' : value.slice(0, 12).join(' ') + (value.length > 12 ? ` (+${value.length - 12})` : '');
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  };
  context.stdout.write(`${entries.map(([key, value]) => `${key.padEnd(width)}  ${shown(value)}`).join('\n')}\n`);
  if (json) context.stdout.write(`${JSON.stringify(report)}\n`);
}

function failed(error: unknown, context: CommandContext): number {
  context.stderr.write(`eval tools: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

function renderTable(report: ToolEvalReport): string {
  const rows: [string, string][] = [
    ['cases', String(report.cases)],
    ['case_recall', report.case_recall.toFixed(4)],
    ['critical_case_recall', `${report.critical_case_recall.toFixed(4)} (${report.critical_cases} critical)`],
    ['required_recall', report.required_recall.toFixed(4)],
    ['precision', report.precision.toFixed(4)],
    ['full_fallback_rate', report.full_fallback_rate.toFixed(4)],
    ['median_reduction', report.median_reduction.toFixed(4)],
    ['mean_reduction', report.mean_reduction.toFixed(4)],
    ['p50_ms', report.p50_ms.toFixed(3)],
    ['p99_ms', report.p99_ms.toFixed(3)],
    ['p99_cpu_ms', report.p99_cpu_ms.toFixed(3)],
    ['reasons', Object.entries(report.reasons).map(([reason, count]) => `${reason}=${count}`).join(' ')],
    ['misses', report.misses.length === 0 ? '-' : report.misses.slice(0, 20).join(' ') + (report.misses.length > 20 ? ` (+${report.misses.length - 20})` : '')],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return `${rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n')}\n`;
}
