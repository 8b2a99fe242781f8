/**
 * Trains the first-turn toolset classifier and writes data/tool-routing/toolset-model.bin (the packed binary form of
 * the model, src/classify/linear/packed-model-file.ts).
 * Deterministic: the same training files and seed give the same file byte for byte.
 *   npx tsx scripts/tool-routing/train.ts [--seed N] [--check]
 * Trains only on data/tool-routing/train.txt, train-*.txt and train-*.jsonl (plus generated variants of them;
 * see training.ts); never on the dev or held-out cases, nor on anything under ../shared.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, toolsetModelRelativePath } from '../../src/classify/toolsets/model-file.js';
import { encodePackedModel } from '../../src/classify/linear/packed-model-file.js';
import type { LabelCalibrationInput } from './training.js';
import { defaultSeed, toolsetLabels, trainingDirectory, trainingFiles, trainToolsetModel } from './training.js';

const seedArgument = process.argv.indexOf('--seed');
const seed = seedArgument > 0 ? Number(process.argv[seedArgument + 1]) : defaultSeed;
const root = packageRoot();
// The per-label calibration fitted on out-of-writer logits (calibrate.ts), when the file is there.
const calibrationPath = join(root, trainingDirectory, 'toolset-calibration.json');
const calibration = existsSync(calibrationPath) ? (JSON.parse(readFileSync(calibrationPath, 'utf8')) as LabelCalibrationInput) : undefined;
const { model, examples, written } = trainToolsetModel({ seed, root, ...(calibration ? { calibration } : {}) });
const bytes = encodePackedModel(model);
const target = join(root, toolsetModelRelativePath);
if (process.argv.includes('--check')) {
  const same = Buffer.compare(readFileSync(target), bytes) === 0;
  process.stdout.write(same ? 'weights are up to date\n' : 'weights differ from a fresh training run\n');
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(target, bytes);
  process.stdout.write(`trained on ${examples} examples (${written} written, from ${trainingFiles(root).join(', ')}), ${Object.keys(model.rows).length} weight rows, ${(bytes.length / 1024).toFixed(0)} KiB → ${toolsetModelRelativePath}\n`);
  process.stdout.write(`temperatures: ${toolsetLabels.map((label, index) => `${label}=${model.temperatures[index]}`).join(' ')}\n`);
}
