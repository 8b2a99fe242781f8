/**
 * Trains the first-turn toolset classifier and writes data/tool-routing/toolset-model.bin (the packed binary form of
 * the model, src/classify/linear/packed-model-file.ts).
 * Deterministic: the same training files and seed give the same file byte for byte.
 *   npx tsx scripts/tool-routing/train.ts [--seed N | --seeds A,B,C] [--out FILE] [--check]
 * --seeds trains once per seed and writes the mean of the weights (average-models.ts); --out writes a candidate
 * elsewhere than the shipped file (for eval-model-file.ts).
 * Trains only on data/tool-routing/train.txt, train-*.txt and train-*.jsonl (plus generated variants of them;
 * see training.ts); never on the dev or held-out cases, nor on anything under ../shared.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, toolsetModelRelativePath } from '../../src/classify/toolsets/model-file.js';
import { encodePackedModel } from '../../src/classify/linear/packed-model-file.js';
import { averageModels } from './average-models.js';
import { option, seedsOption, writeOrCheck } from './command-line.js';
import type { LabelCalibrationInput } from './training.js';
import { defaultSeed, toolsetLabels, trainingDirectory, trainingFiles, trainToolsetModel } from './training.js';

const seeds = seedsOption() ?? [defaultSeed];
const root = packageRoot();
// The per-label calibration fitted on out-of-writer logits (calibrate.ts), when the file is there.
const calibrationPath = join(root, trainingDirectory, 'toolset-calibration.json');
const calibration = existsSync(calibrationPath) ? (JSON.parse(readFileSync(calibrationPath, 'utf8')) as LabelCalibrationInput) : undefined;
const trained = seeds.map((seed) => trainToolsetModel({ seed, root, ...(calibration ? { calibration } : {}) }));
const { examples, written } = trained[0]!;
const model = trained.length === 1 ? trained[0]!.model : averageModels(trained.map((result) => result.model));
const bytes = encodePackedModel(model);
const target = option('--out') ?? join(root, toolsetModelRelativePath);
if (writeOrCheck(target, bytes, { current: 'weights are up to date', stale: 'weights differ from a fresh training run' })) {
  process.stdout.write(`trained on ${examples} examples (${written} written, from ${trainingFiles(root).join(', ')}), ${Object.keys(model.rows).length} weight rows, ${(bytes.length / 1024).toFixed(0)} KiB → ${target}\n`);
  process.stdout.write(`temperatures: ${toolsetLabels.map((label, index) => `${label}=${model.temperatures[index]}`).join(' ')}\n`);
}
