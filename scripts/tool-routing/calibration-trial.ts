/**
 * Experiment: decision-rule variants (tool_routing sections) on leave-one-writer-out folds, cli and full registries
 * apart. Each held-out writer is decided by the model trained without it (fold-models.ts, cached), once per variant,
 * so a calibration is chosen on writers the model never saw, never on the blind sets.
 *   npx tsx scripts/tool-routing/calibration-trial.ts --variants '{"shipped":{},"wider":{"thresholds":{"default":0.1}}}' \
 *     --holdout train-writer-6.jsonl --holdout train-writer-7.jsonl [--dump /tmp/cases.jsonl]
 * Prints one line per writer and variant, then the case-weighted totals per variant. `--dump` writes each case's
 * outcome under the first variant (id, registry, recalled, reduction, rules, scores) for offline analysis.
 * With --together the named writers share one fold (all of them left out of one training, as leave-one-writer-out.ts
 * --together); `--only train-writer-N.jsonl` then decides that writer alone with the shared fold's model.
 * Fold models keep the trainer's own random-fifth temperatures: the shipped model's probabilities are calibrated on
 * out-of-writer logits instead (calibrate.ts) and the default miss costs are set for those, so compare a decision
 * rule here against the same fold models with the old miss costs, or use fold-variants.ts with a calibration fitted
 * without the held-out writers (src/tools/ARCHITECTURE.md, "Calibration on out-of-writer logits").
 */
import { writeFileSync } from 'node:fs';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../../src/eval/tools/registries.js';
import { percentile, runToolEval } from '../../src/eval/tools/run-tool-eval.js';
import { frameTokens } from '../../src/classify/features/scopes.js';
import { toolsetFeatures } from '../../src/classify/toolsets/toolset-features.js';
import { loadWordClusters } from '../../src/classify/toolsets/word-clusters.js';
import { caseMessages } from '../../src/eval/tools/tool-cases.js';
import { toolRoutingConfigSchema } from '../../src/tools/config.js';
import { heldOutFold } from './fold-models.js';

const root = packageRoot();
const argument = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const holdouts = process.argv.flatMap((value, index) => (process.argv[index - 1] === '--holdout' ? [value] : []));
const variants = Object.entries(JSON.parse(argument('--variants') ?? '{"shipped":{}}') as Record<string, unknown>);
const dumpPath = argument('--dump');
const directory = defaultRegistriesDirectory();

interface Tally {
  cases: number;
  recalled: number;
  critical: number;
  criticalRecalled: number;
  full: number;
  reductions: number[];
}
const emptyTally = (): Tally => ({ cases: 0, recalled: 0, critical: 0, criticalRecalled: 0, full: 0, reductions: [] });
const round = (value: number): number => Math.round(value * 1e4) / 1e4;
function describe(tally: Tally): string {
  const mean = tally.reductions.reduce((sum, value) => sum + value, 0) / Math.max(1, tally.reductions.length);
  return `recall ${round(tally.recalled / Math.max(1, tally.cases)).toFixed(4)} crit ${round(tally.criticalRecalled / Math.max(1, tally.critical)).toFixed(4)} median ${round(percentile(tally.reductions, 0.5)).toFixed(4)} mean ${round(mean).toFixed(4)} full ${round(tally.full / Math.max(1, tally.cases)).toFixed(4)} (n ${tally.cases})`;
}

const totals = new Map<string, Record<string, Tally>>();
const dump: string[] = [];
for (const holdout of holdouts) {
  if (argument('--only') !== undefined && holdout !== argument('--only')) continue;
  const { cases, byId, trained, model, neighbours } = heldOutFold(root, holdout, process.argv.includes('--together') ? holdouts : [holdout]);
  const clusters = loadWordClusters();
  /** The share of a message's hashed features the fold's model has a weight row for (how familiar its wording is). */
  const coverageOf = (text: string, hasImage: boolean): { features: number; covered: number; words: number; knownWords: number } => {
    const tokens = frameTokens(text);
    const features = toolsetFeatures(text, hasImage, model.featureBits, tokens, clusters);
    let covered = 0;
    for (const index of features.indices) if (trained.rows[String(index)] !== undefined) covered += 1;
    const words = tokens.filter((token) => !token.unspaced && /^\p{L}[\p{L}\p{M}'-]*$/u.test(token.text) && token.text.length >= 2);
    const knownWords = clusters ? words.filter((token) => clusters.clustersOf(token.text) !== undefined).length : 0;
    return { features: features.indices.length, covered, words: words.length, knownWords };
  };
  variants.forEach(([name, section], variantIndex) => {
    const config = toolRoutingConfigSchema.parse(section);
    const tallies: Record<string, Tally> = { all: emptyTally(), cli: emptyTally(), full: emptyTally() };
    runToolEval(cases, {
      toolsFor: (registry) => loadRegistryTools(directory, registry),
      model,
      neighbours,
      config,
      timingRuns: 1,
      onCase: (outcome) => {
        const toolCase = byId.get(outcome.id)!;
        for (const key of ['all', toolCase.registry]) {
          const tally = (tallies[key] ??= emptyTally());
          tally.cases += 1;
          if (outcome.recalled) tally.recalled += 1;
          if (toolCase.critical) {
            tally.critical += 1;
            if (outcome.recalled) tally.criticalRecalled += 1;
          }
          if (outcome.decision.outcome === 'full') tally.full += 1;
          tally.reductions.push(outcome.reduction);
        }
        if (dumpPath && variantIndex === 0) {
          const { decision } = outcome;
          const user = caseMessages(toolCase).find((message) => message.role === 'user');
          const text = user?.text ?? '';
          const probabilities = model.predict(toolsetFeatures(text, user?.hasImage ?? false, model.featureBits, undefined, clusters));
          const probability = Object.fromEntries(model.labels.map((label, index) => [label, round(probabilities[index]!)]));
          dump.push(JSON.stringify({ ...coverageOf(text, user?.hasImage ?? false), chars: text.length, probability, holdout, id: outcome.id, registry: toolCase.registry, recalled: outcome.recalled, reduction: round(outcome.reduction), required: toolCase.required_toolsets, any: toolCase.required_any, kept: outcome.keptToolsets, rules: decision.rules, reason: decision.reason, scores: decision.scores }));
        }
      },
    });
    const total = totals.get(name) ?? {};
    for (const [key, tally] of Object.entries(tallies)) {
      const sum = (total[key] ??= emptyTally());
      sum.cases += tally.cases;
      sum.recalled += tally.recalled;
      sum.critical += tally.critical;
      sum.criticalRecalled += tally.criticalRecalled;
      sum.full += tally.full;
      sum.reductions.push(...tally.reductions);
    }
    totals.set(name, total);
    process.stdout.write(`${holdout} ${name}: ${describe(tallies['all']!)} | cli ${describe(tallies['cli']!)} | full ${describe(tallies['full'] ?? emptyTally())}\n`);
  });
}
for (const [name, total] of totals) process.stdout.write(`TOTAL ${name}: ${describe(total['all']!)} | cli ${describe(total['cli']!)} | full ${describe(total['full'] ?? emptyTally())}\n`);
if (dumpPath) writeFileSync(dumpPath, `${dump.join('\n')}\n`);
