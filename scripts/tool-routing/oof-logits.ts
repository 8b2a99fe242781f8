/**
 * Experiment: raw out-of-fold logits (before the temperatures) for calibration. The model trained without the
 * `--exclude` training files scores the first user message of every case of the `--dump` files (a subset of the
 * excluded ones), one JSON line per case: writer, id, registry, critical, logits per label, and the training targets
 * (1 positive, 0 negative, 2 left out of the loss: the rest of a required_any group and the acceptable extras).
 *   npx tsx scripts/tool-routing/oof-logits.ts --exclude train-writer-1.jsonl ... --dump train-writer-1.jsonl ... > out.jsonl
 *   npx tsx scripts/tool-routing/oof-logits.ts --model /tmp/old.bin --dump train-writer-48.jsonl ... > out.jsonl
 * The fold model is cached (fold-models.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MultilabelModel } from '../../src/classify/linear/multilabel-model.js';
import { decodePackedModel, encodePackedModel } from '../../src/classify/linear/packed-model-file.js';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { needsToolLabel } from '../../src/classify/toolsets/toolset-classifier.js';
import { toolsetFeatures } from '../../src/classify/toolsets/toolset-features.js';
import { loadWordClusters } from '../../src/classify/toolsets/word-clusters.js';
import { caseMessages, parseToolCases } from '../../src/eval/tools/tool-cases.js';
import { modelWithout } from './fold-models.js';
import { trainingDirectory } from './training.js';

const root = packageRoot();
const listOf = (flag: string): string[] => process.argv.flatMap((value, index) => (process.argv[index - 1] === flag ? value.split(',') : []));
const excluded = listOf('--exclude');
const dumped = listOf('--dump');
// --model FILE: a packed model file (another commit's weights, trained without the dumped files) instead of a fold.
const modelPath = process.argv.includes('--model') ? process.argv[process.argv.indexOf('--model') + 1] : undefined;
const json = modelPath ? undefined : modelWithout(root, excluded);
const model = new MultilabelModel(json ?? decodePackedModel(readFileSync(modelPath!)));
// --save-model FILE: the fold model's packed form, for fold-variants.ts and eval-model-file.ts.
const savePath = process.argv.includes('--save-model') ? process.argv[process.argv.indexOf('--save-model') + 1] : undefined;
if (savePath && json) writeFileSync(savePath, encodePackedModel(json));
const clusters = loadWordClusters();
for (const file of dumped) {
  for (const toolCase of parseToolCases(readFileSync(join(root, trainingDirectory, file), 'utf8'), file)) {
    const user = caseMessages(toolCase).find((message) => message.role === 'user');
    if (!user) continue;
    const logits = model.logits(toolsetFeatures(user.text, user.hasImage, model.featureBits, undefined, clusters));
    const targets = model.labels.map(() => 0);
    const index = (label: string): number => model.labels.indexOf(label);
    for (const toolset of toolCase.acceptable_extra_toolsets) if (index(toolset) >= 0) targets[index(toolset)] = 2;
    let positive = false;
    for (const toolset of toolCase.required_toolsets) if (index(toolset) >= 0) ((targets[index(toolset)] = 1), (positive = true));
    for (const group of toolCase.required_any) {
      const usable = group.filter((toolset) => index(toolset) >= 0);
      if (usable.some((toolset) => targets[index(toolset)] === 1)) continue;
      usable.forEach((toolset, position) => (targets[index(toolset)] = position === 0 ? 1 : 2));
      if (usable.length > 0) positive = true;
    }
    if (positive) targets[index(needsToolLabel)] = 1;
    process.stdout.write(`${JSON.stringify({ writer: file, id: toolCase.id, registry: toolCase.registry, critical: toolCase.critical, any: toolCase.required_any, required: toolCase.required_toolsets, logits: Array.from(logits, (value) => Math.round(value * 1e4) / 1e4), targets })}\n`);
  }
}
