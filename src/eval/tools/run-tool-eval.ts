import { performance } from 'node:perf_hooks';
import type { MultilabelModel } from '../../classify/linear/multilabel-model.js';
import type { NeighbourIndex } from '../../classify/toolsets/neighbour-index.js';
import { loadToolsetModel } from '../../classify/toolsets/model-file.js';
import type { ToolRoutingConfig } from '../../tools/config.js';
import { defaultToolRoutingConfig } from '../../tools/config.js';
import { decideFirstTurnSurface, decideResumedSurface } from '../../tools/decide-surface.js';
import type { SurfaceDecision } from '../../tools/decision.js';
import { isFirstTurn } from '../../tools/first-turn.js';
import { countToolsTokens } from '../../tools/token-count.js';
import type { ToolCase } from './tool-cases.js';
import { caseMessages, caseRecalled } from './tool-cases.js';

/** Exactly the keys EVALS.md lists for `eval tools`, plus a breakdown by decision reason. */
/** Exercise every code path once (quotes, negation, Chinese, URLs, paths) so regex and JIT tier-up happen here. */
const warmUpTexts = [
  'hello',
  'run the tests and fix what fails in src/app.ts',
  '每天早上提醒我喝水，不要运行测试',
  "the ticket says 'restart the worker'; don't do it, just open https://example.org/status",
  'what can you do?',
];

export interface ToolEvalReport {
  cases: number;
  case_recall: number;
  critical_case_recall: number;
  required_recall: number;
  precision: number;
  full_fallback_rate: number;
  median_reduction: number;
  mean_reduction: number;
  p50_ms: number;
  p99_ms: number;
  /** The same decisions in process CPU time: what they cost when the machine is shared and busy. */
  p50_cpu_ms: number;
  p99_cpu_ms: number;
  misses: string[];
  critical_cases: number;
  reasons: Record<string, number>;
}

export interface CaseOutcome {
  id: string;
  recalled: boolean;
  decision: SurfaceDecision;
  keptToolsets: string[];
  reduction: number;
  elapsedMs: number;
}

export interface ToolEvalOptions {
  toolsFor: (registry: string) => readonly unknown[];
  config?: ToolRoutingConfig;
  model?: MultilabelModel;
  /** The neighbour index (SurfaceInput.neighbours): the shipped one when absent, none when null. */
  neighbours?: NeighbourIndex | null;
  onProgress?: (done: number, total: number) => void;
  onCase?: (outcome: CaseOutcome) => void;
  /** Timed runs per case (median kept); 9 by default. */
  timingRuns?: number;
}

export function runToolEval(cases: readonly ToolCase[], options: ToolEvalOptions): ToolEvalReport {
  const config = options.config ?? defaultToolRoutingConfig();
  const timingRuns = Math.max(1, options.timingRuns ?? 9);
  const model = options.model ?? loadToolsetModel();
  const neighbours = options.neighbours === undefined ? {} : { neighbours: options.neighbours };
  const times: number[] = [];
  const cpuMedians: number[] = [];
  const reductions: number[] = [];
  const misses: string[] = [];
  const reasons: Record<string, number> = {};
  let recalled = 0;
  let criticalCases = 0;
  let criticalRecalled = 0;
  let requiredUnits = 0;
  let requiredKept = 0;
  let relevantKept = 0;
  let countedKept = 0;
  let fullCount = 0;

  // Agents send the same tools array on every request, so the gateway builds each array's routing context once
  // (cached by content hash) and keeps the model loaded. Warm both per registry so the timings below measure the
  // per-request decision, as in a running gateway, not one-time start-up work.
  for (const registry of new Set(cases.map((toolCase) => toolCase.registry))) {
    const tools = options.toolsFor(registry);
    for (let round = 0; round < 3; round += 1) {
      for (const text of warmUpTexts) decideFirstTurnSurface({ tools, format: 'openai-chat', messages: [{ role: 'user', text, toolCallNames: [], hasImage: false }], config, model, ...neighbours });
    }
  }

  // Decisions first, scoring after: token counting allocates heavily, and its garbage collections must not land
  // inside the timed decisions. The decision is pure, so every case is decided in `timingRuns` passes over the
  // whole set and its median time kept: on a shared machine one run mostly measures the scheduler, and spreading
  // the runs over time keeps one burst of load from hitting every run of a case. The first pass is scored.
  const inputs = cases.map((toolCase) => {
    const tools = options.toolsFor(toolCase.registry);
    const messages = caseMessages(toolCase);
    return { tools, messages, decide: isFirstTurn(messages) ? decideFirstTurnSurface : decideResumedSurface };
  });
  const runTimes = cases.map((): number[] => []);
  const cpuTimes = cases.map((): number[] => []);
  const firstDecisions: SurfaceDecision[] = [];
  for (let pass = 0; pass < timingRuns; pass += 1) {
    inputs.forEach(({ tools, messages, decide }, index) => {
      const cpuStarted = process.cpuUsage();
      const started = performance.now();
      const decision = decide({ tools, format: 'openai-chat', messages, config, model, ...neighbours });
      runTimes[index]!.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuStarted);
      cpuTimes[index]!.push((cpu.user + cpu.system) / 1000);
      if (pass === 0) firstDecisions.push(decision);
    });
  }
  const decisions = inputs.map(({ tools }, index) => {
    const elapsedMs = percentile(runTimes[index]!, 0.5);
    times.push(elapsedMs);
    cpuMedians.push(percentile(cpuTimes[index]!, 0.5));
    return { decision: firstDecisions[index]!, elapsedMs, tools };
  });

  cases.forEach((toolCase, index) => {
    const { decision, elapsedMs, tools } = decisions[index]!;
    reasons[decision.reason] = (reasons[decision.reason] ?? 0) + 1;

    const kept = new Set(decision.outcome === 'full' ? decision.availableToolsets : (decision.surface?.loadedToolsets ?? []));
    if (decision.outcome === 'full') {
      fullCount += 1;
      // A full decision may stop before the registry is read; every toolset the tools name is then kept.
      for (const name of toolCase.required_toolsets) kept.add(name);
      for (const group of toolCase.required_any) for (const name of group) kept.add(name);
    }
    const fullTokens = countToolsTokens(tools);
    const sentTokens = decision.outcome === 'full' ? fullTokens : countToolsTokens(decision.tools);
    const reduction = 1 - sentTokens / fullTokens;
    reductions.push(reduction);

    const recalledCase = caseRecalled(toolCase, kept);
    if (recalledCase) recalled += 1;
    else misses.push(toolCase.id);
    if (toolCase.critical) {
      criticalCases += 1;
      if (recalledCase) criticalRecalled += 1;
    }
    requiredUnits += toolCase.required_toolsets.length + toolCase.required_any.length;
    requiredKept += toolCase.required_toolsets.filter((name) => kept.has(name)).length + toolCase.required_any.filter((group) => group.some((name) => kept.has(name))).length;
    const relevant = new Set([...toolCase.required_toolsets, ...toolCase.required_any.flat()]);
    const allowed = new Set(toolCase.acceptable_extra_toolsets);
    for (const name of kept) {
      if (relevant.has(name)) {
        relevantKept += 1;
        countedKept += 1;
      } else if (!allowed.has(name)) countedKept += 1;
    }
    options.onCase?.({ id: toolCase.id, recalled: recalledCase, decision, keptToolsets: [...kept], reduction, elapsedMs });
    options.onProgress?.(index + 1, cases.length);
  });

  const total = cases.length;
  return {
    cases: total,
    case_recall: ratio(recalled, total),
    critical_case_recall: ratio(criticalRecalled, criticalCases),
    required_recall: ratio(requiredKept, requiredUnits),
    precision: ratio(relevantKept, countedKept),
    full_fallback_rate: ratio(fullCount, total),
    median_reduction: round(percentile(reductions, 0.5)),
    mean_reduction: round(reductions.reduce((sum, value) => sum + value, 0) / Math.max(total, 1)),
    p50_ms: round(percentile(times, 0.5)),
    p99_ms: round(percentile(times, 0.99)),
    p50_cpu_ms: round(percentile(cpuMedians, 0.5)),
    p99_cpu_ms: round(percentile(cpuMedians, 0.99)),
    misses,
    critical_cases: criticalCases,
    reasons,
  };
}

/** An empty denominator scores 1: no critical case means none was missed. */
function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 1 : round(numerator / denominator);
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
