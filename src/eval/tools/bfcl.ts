import { performance } from 'node:perf_hooks';
import type { MultilabelModel } from '../../classify/linear/multilabel-model.js';
import { loadToolsetModel } from '../../classify/toolsets/model-file.js';
import { isJsonObject } from '../../core/json.js';
import { readBfclClasses, readBfclRows } from '../bfcl-files.js';
import type { ToolRoutingConfig } from '../../tools/config.js';
import { toolRoutingConfigSchema } from '../../tools/config.js';
import { decideFirstTurnSurface } from '../../tools/decide-surface.js';
import { countToolsTokens } from '../../tools/token-count.js';
import { percentile } from './run-tool-eval.js';

/**
 * BFCL v4 multi-turn, read as a non-Hermes agent: its 8 API classes are the toolsets (declared through config
 * overrides, as a user of another agent would), the client offers the functions of the row's involved classes,
 * and the first user turn is routed. Later turns whose classes the first surface lacks are the needs that
 * recovery (request_toolset, whose catalog lists every class) has to meet.
 */
export interface BfclRow {
  id: string;
  user_turns: string[];
  classes_per_turn: string[][];
  first_turn_classes: string[];
  involved_classes: string[];
}

export interface BfclReport {
  cases: number;
  first_turn_case_recall: number;
  first_turn_required_recall: number;
  full_fallback_rate: number;
  median_reduction: number;
  mean_reduction: number;
  /** Later-turn (turn, class) needs in total, and those outside the first surface (recovery must load them). */
  later_turn_needs: number;
  later_needs_needing_recovery: number;
  /** Of those, how many name a toolset listed in the request_toolset catalog (loadable by one call). */
  later_needs_recoverable: number;
  p50_ms: number;
  p99_ms: number;
  p50_cpu_ms: number;
  p99_cpu_ms: number;
  misses: string[];
  reasons: Record<string, number>;
}

type FunctionDefinition = { name: string; description: string; parameters: unknown };

export function readBfcl(rowsPath: string, toolsetsPath: string): { rows: BfclRow[]; classes: Record<string, FunctionDefinition[]> } {
  // Checked on reading, so a wrong file is one sentence naming it, not a TypeError deep in the evaluation.
  const rows: BfclRow[] = readBfclRows(rowsPath);
  const classes: Record<string, FunctionDefinition[]> = Object.fromEntries(
    Object.entries(readBfclClasses(toolsetsPath)).map(([name, functions]) => [name, functions.map((fn) => ({ ...fn, parameters: fn.parameters }))]),
  );
  return { rows, classes };
}

/** BFCL writes JSON Schema with Python's `dict`; the wire format says `object`. */
export function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (!isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  const pythonTypes: Record<string, string> = { dict: 'object', float: 'number', tuple: 'array', any: 'string' };
  for (const [key, inner] of Object.entries(value)) out[key] = key === 'type' && typeof inner === 'string' && inner in pythonTypes ? pythonTypes[inner] : toJsonSchema(inner);
  return out;
}

/** "This tool belongs to the X, which …. Tool description: …" → the class-level sentence, for the catalog. */
function classDescription(functions: readonly FunctionDefinition[]): string {
  const first = functions[0]?.description ?? '';
  return first.split('Tool description:')[0]!.replace(/^This tool belongs to (the )?/i, '').trim().replace(/\.$/, '');
}

/** `involved`: the client offers the row's involved classes (BFCL's own setup); `all`: all 8, like a big agent. */
export type BfclOffer = 'involved' | 'all';

export function runBfclEval(rows: readonly BfclRow[], classes: Record<string, FunctionDefinition[]>, offer: BfclOffer = 'involved', model: MultilabelModel = loadToolsetModel()): BfclReport {
  const overrides = Object.fromEntries(Object.entries(classes).map(([name, functions]) => [name, { tools: functions.map((definition) => definition.name), description: classDescription(functions) }]));
  const config: ToolRoutingConfig = toolRoutingConfigSchema.parse({ toolsets: overrides });
  const toolsByClass = new Map(Object.entries(classes).map(([name, functions]) => [name, functions.map((definition) => ({ type: 'function', function: { name: definition.name, description: definition.description, parameters: toJsonSchema(definition.parameters) } }))]));

  const times: number[] = [];
  const reductions: number[] = [];
  const misses: string[] = [];
  let recalled = 0;
  let requiredUnits = 0;
  let requiredKept = 0;
  let fullCount = 0;
  let laterNeeds = 0;
  let needingRecovery = 0;
  let recoverable = 0;
  // Timed like `eval tools`: 9 passes over all rows, each row's median kept, the first pass scored (the first
  // request with a given tools array also builds its cached routing context, which the median leaves out).
  const prepared = rows.map((row) => {
    const offered = offer === 'all' ? Object.keys(classes) : row.involved_classes;
    const tools = offered.flatMap((name) => toolsByClass.get(name) ?? []);
    const messages = [{ role: 'user' as const, text: row.user_turns[0] ?? '', toolCallNames: [], hasImage: false }];
    return { row, offered, tools, messages };
  });
  const runTimes = prepared.map((): number[] => []);
  const cpuTimes = prepared.map((): number[] => []);
  const cpuMedians: number[] = [];
  const firstDecisions: ReturnType<typeof decideFirstTurnSurface>[] = [];
  for (let pass = 0; pass < 9; pass += 1) {
    prepared.forEach(({ tools, messages }, index) => {
      const cpuStarted = process.cpuUsage();
      const started = performance.now();
      const decision = decideFirstTurnSurface({ tools, format: 'openai-chat', messages, config, model });
      runTimes[index]!.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuStarted);
      cpuTimes[index]!.push((cpu.user + cpu.system) / 1000);
      if (pass === 0) firstDecisions.push(decision);
    });
  }
  const decided = prepared.map((item, index) => {
    times.push(percentile(runTimes[index]!, 0.5));
    cpuMedians.push(percentile(cpuTimes[index]!, 0.5));
    return { ...item, decision: firstDecisions[index]! };
  });
  const reasons: Record<string, number> = {};
  for (const { row, tools, offered, decision } of decided) {
    reasons[decision.reason] = (reasons[decision.reason] ?? 0) + 1;
    const full = decision.outcome === 'full';
    if (full) fullCount += 1;
    const kept = new Set(full ? offered : (decision.surface?.loadedToolsets ?? []));
    const ok = row.first_turn_classes.every((name) => kept.has(name));
    if (ok) recalled += 1;
    else misses.push(row.id);
    requiredUnits += row.first_turn_classes.length;
    requiredKept += row.first_turn_classes.filter((name) => kept.has(name)).length;
    const fullTokens = countToolsTokens(tools);
    reductions.push(full ? 0 : 1 - countToolsTokens(decision.tools) / fullTokens);
    const available = new Set(full ? offered : decision.availableToolsets);
    const loaded = new Set(kept);
    for (const turnClasses of row.classes_per_turn.slice(1)) {
      for (const name of turnClasses) {
        laterNeeds += 1;
        if (loaded.has(name)) continue;
        needingRecovery += 1;
        if (available.has(name)) recoverable += 1;
        loaded.add(name);
      }
    }
  }
  const total = rows.length;
  const round = (value: number): number => Math.round(value * 10000) / 10000;
  return {
    cases: total,
    first_turn_case_recall: round(recalled / Math.max(total, 1)),
    first_turn_required_recall: round(requiredUnits === 0 ? 1 : requiredKept / requiredUnits),
    full_fallback_rate: round(fullCount / Math.max(total, 1)),
    median_reduction: round(percentile(reductions, 0.5)),
    mean_reduction: round(reductions.reduce((sum, value) => sum + value, 0) / Math.max(total, 1)),
    later_turn_needs: laterNeeds,
    later_needs_needing_recovery: needingRecovery,
    later_needs_recoverable: recoverable,
    p50_ms: round(percentile(times, 0.5)),
    p99_ms: round(percentile(times, 0.99)),
    p50_cpu_ms: round(percentile(cpuMedians, 0.5)),
    p99_cpu_ms: round(percentile(cpuMedians, 0.99)),
    misses,
    reasons,
  };
}
