/**
 * Experiment: decision-rule variants (tool_routing sections) on several leave-writers-out folds at once, each fold a
 * packed model file trained without its writers, an optional calibration (calibrate.ts, fitted without them) and the
 * writers' case files. Prints one pooled line per variant (cases, misses, recall, critical, mixed and CLI medians,
 * fallback), so a decision rule is chosen on folds and reported on another.
 *   npx tsx scripts/tool-routing/fold-variants.ts --fold MODEL.bin:CAL.json:a.jsonl,b.jsonl [--fold ...] \
 *     --variants '{"shipped":{},"cheaper":{"thresholds":{"miss_cost_tokens":35000}}}'
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { decodePackedModel } from '../../src/classify/linear/packed-model-file.js';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { MultilabelModel } from '../../src/classify/linear/multilabel-model.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../../src/eval/tools/registries.js';
import { percentile, runToolEval } from '../../src/eval/tools/run-tool-eval.js';
import { parseToolCases } from '../../src/eval/tools/tool-cases.js';
import type { ToolCase } from '../../src/eval/tools/tool-cases.js';
import { toolRoutingConfigSchema } from '../../src/tools/config.js';
import type { LabelCalibration } from './calibrate.js';
import { option } from './command-line.js';
import { neighbourIndexWithout } from './neighbour-documents.js';
import { applyCalibration } from './training.js';

const foldSpecs = process.argv.flatMap((value, index) => (process.argv[index - 1] === '--fold' ? [value] : []));
const variants = Object.entries(JSON.parse(option('--variants') ?? '{"shipped":{}}') as Record<string, unknown>);
const directory = defaultRegistriesDirectory();
// --dump FILE: every case's outcome under each variant (variant, id, registry, recalled, reduction, kept, rules) as JSON lines.
const dumpPath = option('--dump');
const dump: string[] = [];
const folds = foldSpecs.map((spec) => {
  const [modelPath, calibrationPath, files] = spec.split(':');
  const packed = decodePackedModel(readFileSync(modelPath!));
  if (calibrationPath) applyCalibration(packed, JSON.parse(readFileSync(calibrationPath, 'utf8')) as LabelCalibration);
  const cases: ToolCase[] = files!.split(',').flatMap((file) => parseToolCases(readFileSync(file, 'utf8'), file));
  // The fold's writers leave the neighbour index as they left the model (each would be its own nearest neighbour).
  const neighbours = neighbourIndexWithout(packageRoot(), files!.split(',').map((file) => basename(file)));
  return { model: new MultilabelModel(packed), neighbours, cases, byId: new Map(cases.map((toolCase) => [toolCase.id, toolCase])) };
});
const round = (value: number): number => Math.round(value * 1e4) / 1e4;
for (const [name, section] of variants) {
  const config = toolRoutingConfigSchema.parse(section);
  const total = { cases: 0, recalled: 0, critical: 0, criticalRecalled: 0, full: 0, all: [] as number[], cli: [] as number[], multi: 0, multiRecalled: 0 };
  for (const fold of folds) {
    runToolEval(fold.cases, {
      toolsFor: (registry) => loadRegistryTools(directory, registry),
      model: fold.model,
      neighbours: fold.neighbours,
      config,
      timingRuns: 1,
      onCase: (outcome) => {
        const toolCase = fold.byId.get(outcome.id)!;
        total.cases += 1;
        if (outcome.recalled) total.recalled += 1;
        if (toolCase.critical) {
          total.critical += 1;
          if (outcome.recalled) total.criticalRecalled += 1;
        }
        if (toolCase.required_toolsets.length + toolCase.required_any.length >= 2) {
          total.multi += 1;
          if (outcome.recalled) total.multiRecalled += 1;
        }
        if (outcome.decision.outcome === 'full') total.full += 1;
        if (dumpPath) dump.push(JSON.stringify({ variant: name, id: outcome.id, registry: toolCase.registry, recalled: outcome.recalled, reduction: round(outcome.reduction), kept: outcome.keptToolsets, rules: outcome.decision.rules, required: toolCase.required_toolsets, any: toolCase.required_any }));
        total.all.push(outcome.reduction);
        if (toolCase.registry === 'cli') total.cli.push(outcome.reduction);
      },
    });
  }
  process.stdout.write(
    `${name}: cases ${total.cases} misses ${total.cases - total.recalled} recall ${round(total.recalled / total.cases)} critical ${round(total.criticalRecalled / Math.max(1, total.critical))} multi ${round(total.multiRecalled / Math.max(1, total.multi))} median ${round(percentile(total.all, 0.5))} cli ${round(percentile(total.cli, 0.5))} mean ${round(total.all.reduce((sum, value) => sum + value, 0) / total.all.length)} full ${round(total.full / total.cases)}\n`,
  );
}
if (dumpPath) writeFileSync(dumpPath, `${dump.join('\n')}\n`);
