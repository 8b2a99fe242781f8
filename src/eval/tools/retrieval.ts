import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { fnv1a } from '../../classify/features/hash.js';
import { seededRandom } from '../../classify/linear/seeded-random.js';
import type { ToolRoutingConfig } from '../../tools/config.js';
import { defaultToolRoutingConfig } from '../../tools/config.js';
import { requestToolsetName } from '../../tools/catalog.js';
import { decideFirstTurnSurface } from '../../tools/decide-surface.js';
import { countToolsTokens } from '../../tools/token-count.js';
import { toJsonSchema } from './bfcl.js';
import { percentile } from './run-tool-eval.js';

/**
 * `eval tools --retrieval`: per-tool narrowing for an agent whose tools no toolset map knows (EVALS.md). Each
 * BFCL narrowing case offers its candidates plus distractors drawn deterministically (seeded by the case id)
 * from the catalogue until the pool holds N tools, in a seeded shuffled order; the first user message decides
 * the surface through the gateway's own first-turn decision.
 */
export interface RetrievalCase {
  id: string;
  messages: { role: string; content: string }[];
  candidates: string[];
  required: string[];
}

export interface CatalogueEntry {
  name: string;
  description: string;
  parameters: unknown;
}

export interface RetrievalReport {
  cases: number;
  pool: number;
  recall: number;
  median_reduction: number;
  mean_reduction: number;
  mean_kept: number;
  full_fallback_rate: number;
  p50_ms: number;
  p99_ms: number;
  /**
   * The same decisions in process CPU time: what they cost when the machine is shared and busy (the wall-clock
   * figures above then count the time the process waited for a core).
   */
  p50_cpu_ms: number;
  p99_cpu_ms: number;
  misses: string[];
}

export function readRetrieval(casesPath: string, cataloguePath: string): { cases: RetrievalCase[]; catalogue: Record<string, CatalogueEntry> } {
  const cases = readFileSync(casesPath, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as RetrievalCase);
  const catalogue = JSON.parse(readFileSync(cataloguePath, 'utf8')) as Record<string, CatalogueEntry>;
  return { cases, catalogue };
}

/** The case's pool: candidates, then seeded distractors with names not yet taken, up to `size`; seeded order. */
export function retrievalPool(toolCase: RetrievalCase, catalogue: Record<string, CatalogueEntry>, size: number, keys: readonly string[] = Object.keys(catalogue).sort()): string[] {
  const random = seededRandom(fnv1a(toolCase.id));
  const pool: string[] = [];
  const names = new Set<string>();
  const add = (key: string): void => {
    const entry = catalogue[key];
    if (!entry || names.has(entry.name)) return;
    names.add(entry.name);
    pool.push(key);
  };
  for (const key of toolCase.candidates) add(key);
  const order = shuffle([...keys], random);
  for (const key of order) {
    if (pool.length >= size) break;
    add(key);
  }
  return shuffle(pool, random);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other]!, items[index]!];
  }
  return items;
}

function toolObject(entry: CatalogueEntry): { type: 'function'; function: { name: string; description: string; parameters: unknown } } {
  return { type: 'function', function: { name: entry.name, description: entry.description, parameters: toJsonSchema(entry.parameters) } };
}

function sentNames(tools: readonly unknown[]): string[] {
  return tools.map((tool) => ((tool as { function?: { name?: string } }).function?.name ?? ''));
}

export function runRetrievalEval(cases: readonly RetrievalCase[], catalogue: Record<string, CatalogueEntry>, pool: number, config: ToolRoutingConfig = defaultToolRoutingConfig()): RetrievalReport {
  const keys = Object.keys(catalogue).sort();
  const reductions: number[] = [];
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const misses: string[] = [];
  let recalled = 0;
  let keptTotal = 0;
  let fullCount = 0;
  for (const toolCase of cases) {
    const tools = retrievalPool(toolCase, catalogue, pool, keys).map((key) => toolObject(catalogue[key]!));
    const text = toolCase.messages.find((message) => message.role === 'user')?.content ?? '';
    const messages = [{ role: 'user' as const, text, toolCallNames: [], hasImage: false }];
    const input = { tools, format: 'openai-chat' as const, messages, config };
    // The first call builds the tools array's cached routing context (once per agent, not per request); the
    // median of the next runs is the decision time.
    const decision = decideFirstTurnSurface(input);
    const runs: number[] = [];
    const cpuRuns: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const cpuStarted = process.cpuUsage();
      const started = performance.now();
      decideFirstTurnSurface(input);
      runs.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuStarted);
      cpuRuns.push((cpu.user + cpu.system) / 1000);
    }
    times.push(percentile(runs, 0.5));
    cpuTimes.push(percentile(cpuRuns, 0.5));
    const full = decision.outcome === 'full';
    if (full) fullCount += 1;
    const kept = new Set(full ? sentNames(tools) : sentNames(decision.tools));
    const required = toolCase.required.map((key) => catalogue[key]?.name ?? key);
    if (required.every((name) => kept.has(name))) recalled += 1;
    else misses.push(toolCase.id);
    keptTotal += full ? tools.length : [...kept].filter((name) => name !== requestToolsetName).length;
    reductions.push(full ? 0 : 1 - countToolsTokens(decision.tools) / countToolsTokens(tools));
  }
  const count = cases.length;
  const round = (value: number): number => Math.round(value * 1e4) / 1e4;
  return {
    cases: count,
    pool,
    recall: round(count === 0 ? 0 : recalled / count),
    median_reduction: round(percentile(reductions, 0.5)),
    mean_reduction: round(count === 0 ? 0 : reductions.reduce((sum, value) => sum + value, 0) / count),
    mean_kept: round(count === 0 ? 0 : keptTotal / count),
    full_fallback_rate: round(count === 0 ? 0 : fullCount / count),
    p50_ms: round(percentile(times, 0.5)),
    p99_ms: round(percentile(times, 0.99)),
    p50_cpu_ms: round(percentile(cpuTimes, 0.5)),
    p99_cpu_ms: round(percentile(cpuTimes, 0.99)),
    misses,
  };
}
