/**
 * Experiment: the misses and the cli surfaces of leave-one-writer-out folds, by kind. For each held-out writer
 * (decided by the model trained without it, fold-models.ts, cached): misses by language (messageLanguage), by
 * number of needs, by missed toolset and by the missed toolset's model probability; and on the CLI registry, which
 * toolsets were kept without being needed and how many schema tokens they cost.
 *   npx tsx scripts/tool-routing/miss-analysis.ts --holdout train-writer-14.jsonl [--together] [--config JSON] [--list] [--surfaces]
 * With --together the named writers share one fold (all of them left out of one training).
 */
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { messageLanguage } from '../../src/classify/toolsets/message-language.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../../src/eval/tools/registries.js';
import { percentile, runToolEval } from '../../src/eval/tools/run-tool-eval.js';
import { caseMessages } from '../../src/eval/tools/tool-cases.js';
import { toolRoutingConfigSchema } from '../../src/tools/config.js';
import { countToolsTokens } from '../../src/tools/token-count.js';
import { hermesToolsetOf } from '../../src/tools/toolsets/hermes-map.js';
import { heldOutFold } from './fold-models.js';

const root = packageRoot();
const holdouts = process.argv.flatMap((value, index) => (process.argv[index - 1] === '--holdout' ? [value] : []));
const configArgument = process.argv.includes('--config') ? process.argv[process.argv.indexOf('--config') + 1] : undefined;
const config = toolRoutingConfigSchema.parse(configArgument ? JSON.parse(configArgument) : {});
const directory = defaultRegistriesDirectory();
const cliTools = loadRegistryTools(directory, 'cli') as { function?: { name?: string }; name?: string }[];
const toolsetTokens = new Map<string, number>();
for (const tool of cliTools) {
  const name = tool.function?.name ?? tool.name ?? '';
  const toolset = hermesToolsetOf(name) ?? '?';
  toolsetTokens.set(toolset, (toolsetTokens.get(toolset) ?? 0) + countToolsTokens([tool]));
}
const cliTotal = countToolsTokens(cliTools);
const count = (map: Map<string, number>, key: string, by = 1): void => void map.set(key, (map.get(key) ?? 0) + by);
const show = (map: Map<string, number>): string => [...map].sort((a, b) => b[1] - a[1]).map(([key, value]) => `${key} ${Math.round(value * 10) / 10}`).join(', ');
const byLanguage = new Map<string, number>();
const casesByLanguage = new Map<string, number>();
const byNeeds = new Map<string, number>();
const casesByNeeds = new Map<string, number>();
const byToolset = new Map<string, number>();
const byProbability = new Map<string, number>();
const extraCount = new Map<string, number>();
const extraTokens = new Map<string, number>();
const cliReductions: number[] = [];
const oracleReductions: number[] = [];
const gaps = new Map<string, number>();
const listed: string[] = [];
process.stdout.write(`cli registry ${cliTotal} tokens: ${show(toolsetTokens)}\n`);
for (const holdout of holdouts) {
  const { cases, byId, model, neighbours } = heldOutFold(root, holdout, process.argv.includes('--together') ? holdouts : [holdout]);
  runToolEval(cases, {
    toolsFor: (registry) => loadRegistryTools(directory, registry),
    model,
    neighbours,
    config,
    timingRuns: 1,
    onCase: (outcome) => {
      const toolCase = byId.get(outcome.id)!;
      const text = caseMessages(toolCase).find((message) => message.role === 'user')?.text ?? '';
      const language = /[\u3040-\u30ff]/.test(text) ? 'japanese' : /[\uac00-\ud7af]/.test(text) ? 'korean' : /[\u4e00-\u9fff]/.test(text) ? 'chinese' : /[\u0400-\u04ff]/.test(text) ? 'cyrillic' : /[\u0600-\u06ff]/.test(text) ? 'arabic' : /[\u0900-\u097f]/.test(text) ? 'hindi' : /[\u0e00-\u0e7f]/.test(text) ? 'thai' : messageLanguage(text);
      const needs = toolCase.required_toolsets.length + toolCase.required_any.length;
      const needKey = needs === 0 ? '0' : needs === 1 ? '1' : '2+';
      count(casesByLanguage, language);
      count(casesByNeeds, needKey);
      const kept = new Set(outcome.keptToolsets);
      if (toolCase.registry === 'cli') {
        cliReductions.push(outcome.reduction);
        if (process.argv.includes('--surfaces')) listed.push(`surface ${outcome.reduction.toFixed(3)} needed ${[...toolCase.required_toolsets, ...toolCase.required_any.map((group) => group.join('|'))].join(',') || '-'} kept ${[...kept].sort().join(',')} rules ${outcome.decision.rules?.join(',') ?? ''}`);
        const needed = [...toolCase.required_toolsets, ...toolCase.required_any.map((group) => group[0]!)];
        oracleReductions.push(1 - needed.reduce((sum, toolset) => sum + (toolsetTokens.get(toolset) ?? 0), 0) / cliTotal);
        const kind = needed.length === 0 ? 'none' : [...needed].sort().join('+');
        count(gaps, kind);
        const relevant = new Set([...toolCase.required_toolsets, ...toolCase.required_any.flat(), ...toolCase.acceptable_extra_toolsets]);
        if (outcome.decision.outcome !== 'full') {
          for (const toolset of kept) {
            if (relevant.has(toolset)) continue;
            count(extraCount, toolset);
            count(extraTokens, toolset, (toolsetTokens.get(toolset) ?? 0) / cliTotal);
          }
        }
      }
      if (outcome.recalled) return;
      count(byLanguage, language);
      count(byNeeds, needKey);
      const missing = [...toolCase.required_toolsets.filter((toolset) => !kept.has(toolset)), ...toolCase.required_any.filter((group) => !group.some((toolset) => kept.has(toolset))).map((group) => group.join('|'))];
      for (const toolset of missing) {
        count(byToolset, toolset);
        const probability = Math.max(...toolset.split('|').map((name) => outcome.decision.scores?.[name] ?? 0));
        count(byProbability, probability < 0.01 ? '<0.01' : probability < 0.05 ? '<0.05' : probability < 0.15 ? '<0.15' : '≥0.15');
      }
      listed.push(`${holdout} ${toolCase.registry} ${language} missing ${missing.join(',')} kept ${[...kept].join(',')} :: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
    },
  });
}
const rate = (misses: Map<string, number>, totals: Map<string, number>): string => [...totals].sort((a, b) => b[1] - a[1]).map(([key, total]) => `${key} ${misses.get(key) ?? 0}/${total}`).join(', ');
process.stdout.write(`misses by language: ${rate(byLanguage, casesByLanguage)}\n`);
process.stdout.write(`misses by needs: ${rate(byNeeds, casesByNeeds)}\n`);
process.stdout.write(`missed toolsets: ${show(byToolset)}\n`);
process.stdout.write(`missed toolset's score: ${show(byProbability)}\n`);
process.stdout.write(`cli median ${percentile(cliReductions, 0.5).toFixed(4)} over ${cliReductions.length}; extras kept (cases): ${show(extraCount)}\n`);
process.stdout.write(`cli oracle median (needed toolsets only, no request_toolset) ${percentile(oracleReductions, 0.5).toFixed(4)}; needs: ${show(new Map([...gaps].filter(([, value]) => value >= 5)))}\n`);
process.stdout.write(`cli extras, schema share summed over cases: ${show(extraTokens)}\n`);
if (process.argv.includes('--list')) process.stdout.write(`${listed.join('\n')}\n`);
