import { resolve } from 'node:path';
import type { TopicMode } from '../classify/topic/classifier.js';
import { TopicClassifier, topicModes } from '../classify/topic/classifier.js';
import { readRouteRows, readTopicCases } from '../eval/topic-cases.js';
import type { RouteEvalReport } from '../eval/topics-routes-run.js';
import { runRouteEval } from '../eval/topics-routes-run.js';
import { runTopicEval } from '../eval/topics-run.js';
import { flagsOrExit } from './arguments.js';
import type { Command, CommandContext } from './command.js';

const usage = [
  'Usage: hermes-router eval topics --cases FILE [--mode learned|keyword|hybrid] [--min-confidence N] [--json]',
  '       hermes-router eval topics --cases FILE --routes-from FILE [--examples-per-route N[,N…|all]] [--route-threshold N] [--route-min-similarity N] [--json]',
  '',
  'Without --routes-from, FILE holds topic cases ({"id","messages","topic","acceptable_topics"?}).',
  'With --routes-from, both files hold CLINC rows: routes are built from the train rows of --routes-from',
  '(oos_train rows as negatives) and every non-training row of --cases is scored. --examples-per-route keeps',
  'that many train rows per route (evenly spread); a list such as 10,30,all prints one row per size.',
  '',
].join('\n');

/** `hermes-router eval topics`: topic routing accuracy, or user-defined routes on CLINC rows (EVALS.md keys). */
export const evalTopicsCommand: Command = {
  name: 'eval topics',
  summary: 'Measure topic routing (or user-defined routes) on labelled cases',
  async run(args: string[], context: CommandContext): Promise<number> {
    const values = flagsOrExit(args, {
      cases: { type: 'string' },
      'routes-from': { type: 'string' },
      mode: { type: 'string', default: 'learned' },
      'min-confidence': { type: 'string' },
      'route-threshold': { type: 'string' },
      'route-min-similarity': { type: 'string' },
      'examples-per-route': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    }, usage, context, true);
    if (typeof values === 'number') return values;
    const mode = values.mode as TopicMode;
    if (!values.cases || !topicModes.includes(mode)) {
      context.stderr.write(`${values.cases ? `--mode must be one of ${topicModes.join(', ')}` : '--cases is required'}\n${usage}`);
      return 2;
    }
    const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
    const sizes = (values['examples-per-route'] ?? 'all').split(',').map((size) => (size.trim() === 'all' ? undefined : Number(size)));
    if (sizes.some((size) => size !== undefined && (!Number.isInteger(size) || size < 1))) {
      context.stderr.write(`--examples-per-route takes positive integers or "all", comma-separated\n${usage}`);
      return 2;
    }
    try {
      const casesPath = resolve(context.cwd, values.cases);
      if (values['routes-from']) {
        const trainingRows = readRouteRows(resolve(context.cwd, values['routes-from']));
        const caseRows = readRouteRows(casesPath);
        const reports = sizes.map((examplesPerRoute) => runRouteEval(trainingRows, caseRows, { examplesPerRoute, threshold: number(values['route-threshold']), minSimilarity: number(values['route-min-similarity']) }));
        const report = reports.length === 1 ? reports[0]! : { by_examples_per_route: reports };
        context.stdout.write(reports.length === 1 ? renderReport(reports[0]!) : renderRouteTable(reports));
        if (values.json) context.stdout.write(`${JSON.stringify(report)}\n`);
        return 0;
      }
      const report = runTopicEval(readTopicCases(casesPath), new TopicClassifier({ mode, minConfidence: number(values['min-confidence']) }));
      context.stdout.write(renderReport(report));
      if (values.json) context.stdout.write(`${JSON.stringify(report)}\n`);
      return 0;
    } catch (error) {
      context.stderr.write(`eval topics: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  },
};

function renderRouteTable(reports: readonly RouteEvalReport[]): string {
  const columns = ['examples_per_route', 'train_utterances', 'route_accuracy', 'oos_rejection', 'route_threshold', 'build_ms', 'p99_ms'] as const;
  const lines = [columns.map((column) => column.padStart(18)).join(' ')];
  for (const report of reports) lines.push(columns.map((column) => String(report[column]).padStart(18)).join(' '));
  return `${lines.join('\n')}\n`;
}

function renderReport(report: object): string {
  const entries = Object.entries(report);
  const width = Math.max(...entries.map(([key]) => key.length));
  const lines: string[] = [];
  for (const [key, value] of entries) {
    if (key === 'per_topic' && value && typeof value === 'object') {
      lines.push('per_topic');
      for (const [topic, metrics] of Object.entries(value as Record<string, { precision: number; recall: number; f1: number; support: number }>)) {
        lines.push(`  ${topic.padEnd(20)} precision ${metrics.precision.toFixed(3)}  recall ${metrics.recall.toFixed(3)}  f1 ${metrics.f1.toFixed(3)}  n=${metrics.support}`);
      }
    } else if (key === 'misses' && Array.isArray(value)) {
      lines.push(`${key.padEnd(width)}  ${value.length}${value.length ? `: ${value.slice(0, 15).map((miss: { id: string; predicted: string }) => `${miss.id}→${miss.predicted}`).join(' ')}` : ''}`);
    } else {
      lines.push(`${key.padEnd(width)}  ${String(value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
