/**
 * Every case's tool-routing decision as one JSON line (outcome, reason, predicted and kept toolsets, confidence,
 * per-toolset scores), without timings: to show that a change to how the shipped tables load (the toolset
 * model, the word clusters) leaves every decision bit for bit as it was. Run before and after, compare:
 *   npx tsx scripts/tool-routing/decisions.ts data/tool-routing/cases.dev.jsonl > /tmp/before.jsonl
 *   … change …
 *   npx tsx scripts/tool-routing/decisions.ts data/tool-routing/cases.dev.jsonl | cmp - /tmp/before.jsonl
 * With `--config JSON` (a tool_routing section) the decisions of another operating point, to see which cases a change
 * to the decision rules moves.
 * The decision's scores are rounded, so a last line carries a digest of the exact bits of every probability and
 * logit the model computed in the run, in order.
 */
import { createHash } from 'node:crypto';
import { loadToolsetModel } from '../../src/classify/toolsets/model-file.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../../src/eval/tools/registries.js';
import { runToolEval } from '../../src/eval/tools/run-tool-eval.js';
import { readToolCases } from '../../src/eval/tools/tool-cases.js';
import { toolRoutingConfigSchema } from '../../src/tools/config.js';
import { option } from './command-line.js';

const casesPath = process.argv[2];
if (!casesPath || casesPath.startsWith('--')) throw new Error('usage: decisions.ts <cases.jsonl> [--config JSON]');
const configText = option('--config');
const directory = defaultRegistriesDirectory();
const model = loadToolsetModel();
const digest = createHash('sha256');
for (const method of ['predict', 'logits'] as const) {
  const original = model[method].bind(model);
  model[method] = (features) => {
    const values = original(features);
    digest.update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    return values;
  };
}
runToolEval(readToolCases(casesPath), {
  ...(configText ? { config: toolRoutingConfigSchema.parse(JSON.parse(configText)) } : {}),
  toolsFor: (registry) => loadRegistryTools(directory, registry),
  model,
  timingRuns: 1,
  onCase: ({ id, recalled, decision, keptToolsets, reduction }) => {
    const { outcome, reason, predictedToolsets, confidence, scores, rules } = decision;
    const line = { id, recalled, outcome, reason, predictedToolsets, confidence, scores, rules, keptToolsets, reduction, loaded: decision.surface?.loadedToolsets ?? null };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  },
});
process.stdout.write(`${JSON.stringify({ modelOutputsSha256: digest.digest('hex') })}\n`);
