/**
 * `eval tools` figures of a given packed model file (another commit's weights) on eval case files, overall and on
 * the CLI registry alone, without touching the shipped file:
 *   git show be36744:data/tool-routing/toolset-model.bin > /tmp/old.bin
 *   npx tsx scripts/tool-routing/eval-model-file.ts /tmp/old.bin data/tool-routing/train-writer-52.jsonl ...
 */
import { readFileSync } from 'node:fs';
import { decodePackedModel } from '../../src/classify/linear/packed-model-file.js';
import { MultilabelModel } from '../../src/classify/linear/multilabel-model.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../../src/eval/tools/registries.js';
import { percentile, runToolEval } from '../../src/eval/tools/run-tool-eval.js';
import { parseToolCases } from '../../src/eval/tools/tool-cases.js';
import { toolRoutingConfigSchema } from '../../src/tools/config.js';
import type { LabelCalibration } from './calibrate.js';
import { option } from './command-line.js';
import { applyCalibration } from './training.js';

const positional = process.argv.slice(2).filter((value, index, all) => !value.startsWith('--') && !all[index - 1]?.startsWith('--'));
const [modelPath, ...caseFiles] = positional;
// --config JSON: a tool_routing section instead of the defaults; --temperature-floor T: no label sharper than T.
const configText = option('--config');
const config = configText ? toolRoutingConfigSchema.parse(JSON.parse(configText)) : undefined;
const floor = Number(option('--temperature-floor') ?? 0);
if (!modelPath || caseFiles.length === 0) throw new Error('usage: eval-model-file.ts MODEL.bin CASES.jsonl...');
const packed = decodePackedModel(readFileSync(modelPath));
if (floor > 0 && packed.temperatures) packed.temperatures = packed.temperatures.map((value) => Math.max(value, floor));
// --calibration FILE: per-label temperatures and shifts (calibrate.ts) in place of the file's temperatures.
const calibrationPath = option('--calibration');
if (calibrationPath) applyCalibration(packed, JSON.parse(readFileSync(calibrationPath, 'utf8')) as LabelCalibration);
const model = new MultilabelModel(packed);
const directory = defaultRegistriesDirectory();
const total = { cases: 0, recalled: 0, critical: 0, criticalRecalled: 0, full: 0, all: [] as number[], cli: [] as number[], medians: [] as number[], cliMedians: [] as number[] };
for (const file of caseFiles) {
  const cases = parseToolCases(readFileSync(file, 'utf8'), file);
  const registryOf = new Map(cases.map((toolCase) => [toolCase.id, toolCase.registry]));
  const byId = new Map(cases.map((toolCase) => [toolCase.id, toolCase]));
  const cli: number[] = [];
  const report = runToolEval(cases, {
    toolsFor: (registry) => loadRegistryTools(directory, registry),
    model,
    ...(config ? { config } : {}),
    timingRuns: 1,
    onCase: (outcome) => {
      if (registryOf.get(outcome.id) === 'cli') cli.push(outcome.reduction);
      const toolCase = byId.get(outcome.id)!;
      total.cases += 1;
      if (outcome.recalled) total.recalled += 1;
      if (toolCase.critical) {
        total.critical += 1;
        if (outcome.recalled) total.criticalRecalled += 1;
      }
      if (outcome.decision.outcome === 'full') total.full += 1;
      total.all.push(outcome.reduction);
      if (toolCase.registry === 'cli') total.cli.push(outcome.reduction);
    },
  });
  const misses = Math.round((1 - report.case_recall) * report.cases);
  total.medians.push(report.median_reduction);
  total.cliMedians.push(percentile(cli, 0.5));
  process.stdout.write(`${file}: cases ${report.cases} (misses ${misses}), case_recall ${report.case_recall}, critical ${report.critical_case_recall}, median ${report.median_reduction} (cli ${Math.round(percentile(cli, 0.5) * 1e4) / 1e4}), mean ${report.mean_reduction}, full_fallback ${report.full_fallback_rate}\n`);
}
if (caseFiles.length > 1) {
  const round = (value: number): number => Math.round(value * 1e4) / 1e4;
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  process.stdout.write(
    `TOTAL: cases ${total.cases} (misses ${total.cases - total.recalled}), case_recall ${round(total.recalled / total.cases)}, critical ${round(total.criticalRecalled / Math.max(1, total.critical))}, median ${round(percentile(total.all, 0.5))} (cli ${round(percentile(total.cli, 0.5))}), mean ${round(mean(total.all))}, mean of writer medians ${round(mean(total.medians))} (cli ${round(mean(total.cliMedians))}), full_fallback ${round(total.full / total.cases)}\n`,
  );
}
