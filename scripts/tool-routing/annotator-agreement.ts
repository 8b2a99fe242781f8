/**
 * How well one annotator's labels serve as a router's surface for another annotator's labels of the same messages:
 * the human reference for the `eval tools` gates. For each direction, the surface of the first annotator's needs
 * (required toolsets and every toolset of each `required_any` group, with or without the acceptable extras; or only
 * the first toolset of each group) is built exactly as the router would send it (`buildSurface`: those toolsets'
 * tools and `request_toolset`) and scored on the other's labels as `eval tools` scores a decision: case recall,
 * critical recall and median reduction of the schema tokens.
 *   npx tsx scripts/tool-routing/annotator-agreement.ts --cases data/heldout-blind/tools-set28.jsonl --second data/heldout-blind/tools-set28.second-annotator.jsonl [--json]
 * The second file holds labels only (`id` and the label fields); messages and registries come from `--cases`.
 */
import { readFileSync } from 'node:fs';
import { defaultRegistriesDirectory, loadRegistryTools } from '../../src/eval/tools/registries.js';
import { percentile } from '../../src/eval/tools/run-tool-eval.js';
import { caseRecalled, parseToolCases, type ToolCase } from '../../src/eval/tools/tool-cases.js';
import { defaultToolRoutingConfig } from '../../src/tools/config.js';
import { toolRoutingContext } from '../../src/tools/routing-context.js';
import { buildSurface } from '../../src/tools/surface.js';
import { countToolsTokens } from '../../src/tools/token-count.js';

const argument = (flag: string): string | undefined => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const casesPath = argument('--cases');
const secondPath = argument('--second');
if (!casesPath || !secondPath) throw new Error('usage: annotator-agreement.ts --cases FILE --second FILE [--json]');

const first = parseToolCases(readFileSync(casesPath, 'utf8'), casesPath);
const messagesById = new Map(first.map((toolCase) => [toolCase.id, toolCase]));
// The second annotator's lines carry no messages: they are joined to the first file's by id.
const secondLines = readFileSync(secondPath, 'utf8').split('\n').filter((line) => line.trim()).map((line) => {
  const labels = JSON.parse(line) as { id: string };
  const original = messagesById.get(labels.id);
  if (!original) throw new Error(`${secondPath}: ${labels.id} is not in ${casesPath}`);
  return JSON.stringify({ ...labels, registry: original.registry, messages: original.messages });
});
const second = parseToolCases(secondLines.join('\n'), secondPath);
const secondById = new Map(second.map((toolCase) => [toolCase.id, toolCase]));
const pairs = first.filter((toolCase) => secondById.has(toolCase.id)).map((toolCase) => [toolCase, secondById.get(toolCase.id)!] as const);

const config = defaultToolRoutingConfig();
const directory = defaultRegistriesDirectory();
const contexts = new Map<string, { context: Exclude<ReturnType<typeof toolRoutingContext>, string>; fullTokens: number }>();
function registryContext(registry: string) {
  let entry = contexts.get(registry);
  if (!entry) {
    const tools = loadRegistryTools(directory, registry);
    const context = toolRoutingContext(tools, 'openai-chat', config);
    if (typeof context === 'string') throw new Error(`registry ${registry}: ${context}`);
    entry = { context, fullTokens: countToolsTokens(tools) };
    contexts.set(registry, entry);
  }
  return entry;
}

type Surface = 'needs and extras' | 'needs' | 'first of each need';
function surfaceToolsets(labels: ToolCase, surface: Surface): Set<string> {
  const toolsets = new Set(labels.required_toolsets);
  for (const group of labels.required_any) {
    if (surface !== 'first of each need') for (const toolset of group) toolsets.add(toolset);
    else if (!group.some((toolset) => toolsets.has(toolset))) toolsets.add(group[0]!);
  }
  if (surface === 'needs and extras') for (const toolset of labels.acceptable_extra_toolsets) toolsets.add(toolset);
  return toolsets;
}

const round = (value: number): number => Math.round(value * 10_000) / 10_000;
const results = [];
const directions = [
  ['second as a surface, scored on the first', 1, 0],
  ['first as a surface, scored on the second', 0, 1],
] as const;
for (const [direction, surfaceSide, truthSide] of directions) {
  for (const surface of ['needs and extras', 'needs', 'first of each need'] as const) {
    let hits = 0;
    let critical = 0;
    let criticalHits = 0;
    const reductions: number[] = [];
    for (const pair of pairs) {
      const labels = pair[surfaceSide];
      const truth = pair[truthSide];
      const kept = surfaceToolsets(labels, surface);
      const { context, fullTokens } = registryContext(labels.registry);
      reductions.push(1 - countToolsTokens(buildSurface(context, config, kept).tools) / fullTokens);
      const hit = caseRecalled(truth, kept);
      hits += Number(hit);
      if (truth.critical) {
        critical += 1;
        criticalHits += Number(hit);
      }
    }
    results.push({
      direction,
      surface,
      cases: pairs.length,
      case_recall: round(hits / pairs.length),
      critical_case_recall: round(criticalHits / Math.max(critical, 1)),
      median_reduction: round(percentile(reductions, 0.5)),
      misses: pairs.length - hits,
    });
  }
}
const sameRequired = pairs.filter(([a, b]) => [...a.required_toolsets].sort().join() === [...b.required_toolsets].sort().join()).length;
const report = { cases: pairs.length, same_required_toolsets: round(sameRequired / pairs.length), results };
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  process.stdout.write(`${pairs.length} cases; the same required toolsets in ${(100 * report.same_required_toolsets).toFixed(1)}%\n`);
  for (const result of results) {
    const figures = `case recall ${result.case_recall.toFixed(4)} (${result.misses} misses), critical ${result.critical_case_recall.toFixed(4)}`;
    process.stdout.write(`${result.direction}, ${result.surface}: ${figures}, median reduction ${result.median_reduction.toFixed(4)}\n`);
  }
}
