/**
 * The honest generalization figure on training data: for each writer's file, train on every other training file
 * (exactly as train.ts would) and run `eval tools` on that file's cases. A writer's phrasing is then as unseen as
 * a stranger's, which a random split cannot show (a line's own generated copies land on both sides).
 *   npx tsx scripts/tool-routing/leave-one-writer-out.ts [--holdout train-writer-1.jsonl ...] [--seed N | --seeds A,B,C] [--config JSON] [--misses-out FILE] [--json]
 * By default every train-writer-*.jsonl is held out in turn. With --together the named files are left out of one
 * training (one model for all of them: a cheaper, slightly harder fold, for comparing two recipes on several writers). Prints aggregate figures only. Trained folds are
 * cached on disk (fold-models.ts), so a re-run after a change to the decision rules costs no training.
 * Fold models keep the trainer's own random-fifth temperatures: the shipped model's probabilities are calibrated on
 * out-of-writer logits instead (calibrate.ts) and the default miss costs are set for those, so compare a decision
 * rule here against the same fold models with the old miss costs, or use fold-variants.ts with a calibration fitted
 * without the held-out writers (src/tools/ARCHITECTURE.md, "Calibration on out-of-writer logits").
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MultilabelModel } from '../../src/classify/linear/multilabel-model.js';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../../src/eval/tools/registries.js';
import { percentile, runToolEval } from '../../src/eval/tools/run-tool-eval.js';
import type { ToolCase } from '../../src/eval/tools/tool-cases.js';
import { parseToolCases } from '../../src/eval/tools/tool-cases.js';
import { defaultCriticalToolsets, toolRoutingConfigSchema } from '../../src/tools/config.js';
import { option, seedsOption } from './command-line.js';
import { modelWithout, soupWithout } from './fold-models.js';
import { neighbourIndexWithout } from './neighbour-documents.js';
import { trainingDirectory, trainingFiles } from './training.js';

const root = packageRoot();
const files = trainingFiles(root);
const named = process.argv.flatMap((argument, index) => (process.argv[index - 1] === '--holdout' ? [argument] : []));
// --config '{"thresholds":{"second_need":0.4}}': a tool_routing section to measure instead of the defaults.
const configArgument = process.argv[process.argv.indexOf('--config') + 1];
const config = process.argv.includes('--config') && configArgument ? toolRoutingConfigSchema.parse(JSON.parse(configArgument)) : undefined;
// --seed N: train the folds with another seed, to see how much of a difference is training noise. --seeds A,B,C: the
// mean of the models trained with each seed (averageModels), each member cached as a --seed fold.
const seeds = seedsOption();
const holdouts = named.length > 0 ? named : files.filter((name) => /^train-writer-[\w-]+\.jsonl$/.test(name));
if (holdouts.length === 0) throw new Error('no writer file to hold out (data/tool-routing/train-writer-*.jsonl, or --holdout NAME)');

/** A `toolsets | text` training file read as eval cases (critical when a critical toolset is required). */
function casesOf(name: string): ToolCase[] {
  const text = readFileSync(join(root, trainingDirectory, name), 'utf8');
  if (name.endsWith('.jsonl')) return parseToolCases(text, name);
  const lines = text.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
  return parseToolCases(
    lines
      .map((line, index) => {
        const separator = line.indexOf(' | ');
        const head = line.slice(0, separator).trim();
        const required = head === '-' ? [] : head.split(',').map((toolset) => toolset.trim());
        const body = line.slice(separator + 3).trim();
        const image = body.startsWith('[img] ');
        const content = image ? [{ type: 'text', text: body.slice(6) }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] : body;
        return JSON.stringify({ id: `${name}:${index + 1}`, messages: [{ role: 'user', content }], required_toolsets: required, critical: required.some((toolset) => defaultCriticalToolsets.includes(toolset)) });
      })
      .join('\n'),
    name,
  );
}

// --misses-out FILE: one JSON line per missed case (id, kept toolsets), to read the fold's misses.
const missesOut = option('--misses-out');
if (missesOut) writeFileSync(missesOut, '');
const directory = defaultRegistriesDirectory();
// With --together every holdout shares one left-out list, so one index serves them all (building one takes seconds).
const foldIndexes = new Map<string, ReturnType<typeof neighbourIndexWithout>>();
const foldIndex = (leftOut: readonly string[]) => {
  const key = leftOut.join(',');
  if (!foldIndexes.has(key)) foldIndexes.set(key, neighbourIndexWithout(root, leftOut));
  return foldIndexes.get(key)!;
};
const results: Record<string, unknown> = {};
for (const holdout of holdouts) {
  if (!files.includes(holdout)) throw new Error(`${holdout} is not a training file in ${trainingDirectory}`);
  const leftOut = process.argv.includes('--together') ? holdouts : [holdout];
  const trained = seeds && seeds.length > 1 ? soupWithout(root, leftOut, seeds) : modelWithout(root, leftOut, seeds?.[0]);
  const cases = casesOf(holdout);
  const registryOf = new Map(cases.map((toolCase) => [toolCase.id, toolCase.registry]));
  // The CLI registry's median on its own: the mixed median hides it (full-registry cases reduce more).
  const cliReductions: number[] = [];
  const report = runToolEval(cases, {
    toolsFor: (registry) => loadRegistryTools(directory, registry),
    model: new MultilabelModel(trained),
    // The shipped index holds the held-out writers' own messages, each its own nearest neighbour.
    neighbours: foldIndex(leftOut),
    ...(config ? { config } : {}),
    timingRuns: 1,
    onCase: (outcome) => {
      if (registryOf.get(outcome.id) === 'cli') cliReductions.push(outcome.reduction);
      if (missesOut && !outcome.recalled) appendFileSync(missesOut, `${JSON.stringify({ id: outcome.id, kept: outcome.keptToolsets })}\n`);
    },
  });
  const { misses: _misses, reasons: _reasons, ...figures } = report;
  const cliMedian = Math.round(percentile(cliReductions, 0.5) * 1e4) / 1e4;
  results[holdout] = { ...figures, cli_median_reduction: cliMedian };
  if (!process.argv.includes('--json')) {
    process.stdout.write(`${holdout} (trained without it on ${trained.trainedOn.examples} examples): cases ${report.cases}, case_recall ${report.case_recall}, critical_case_recall ${report.critical_case_recall}, required_recall ${report.required_recall}, median_reduction ${report.median_reduction} (cli ${cliMedian}), mean_reduction ${report.mean_reduction}, full_fallback_rate ${report.full_fallback_rate}\n`);
  }
}
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(results)}\n`);
