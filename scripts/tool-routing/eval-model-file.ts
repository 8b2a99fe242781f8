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

const option = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const positional = process.argv.slice(2).filter((value, index, all) => !value.startsWith('--') && !all[index - 1]?.startsWith('--'));
const [modelPath, ...caseFiles] = positional;
// --config JSON: a tool_routing section instead of the defaults; --temperature-floor T: no label sharper than T.
const configText = option('--config');
const config = configText ? toolRoutingConfigSchema.parse(JSON.parse(configText)) : undefined;
const floor = Number(option('--temperature-floor') ?? 0);
if (!modelPath || caseFiles.length === 0) throw new Error('usage: eval-model-file.ts MODEL.bin CASES.jsonl...');
const packed = decodePackedModel(readFileSync(modelPath));
if (floor > 0 && packed.temperatures) packed.temperatures = packed.temperatures.map((value) => Math.max(value, floor));
const model = new MultilabelModel(packed);
const directory = defaultRegistriesDirectory();
for (const file of caseFiles) {
  const cases = parseToolCases(readFileSync(file, 'utf8'), file);
  const registryOf = new Map(cases.map((toolCase) => [toolCase.id, toolCase.registry]));
  const cli: number[] = [];
  const report = runToolEval(cases, {
    toolsFor: (registry) => loadRegistryTools(directory, registry),
    model,
    ...(config ? { config } : {}),
    timingRuns: 1,
    onCase: (outcome) => {
      if (registryOf.get(outcome.id) === 'cli') cli.push(outcome.reduction);
    },
  });
  const misses = Math.round((1 - report.case_recall) * report.cases);
  process.stdout.write(`${file}: cases ${report.cases} (misses ${misses}), case_recall ${report.case_recall}, critical ${report.critical_case_recall}, median ${report.median_reduction} (cli ${Math.round(percentile(cli, 0.5) * 1e4) / 1e4}), mean ${report.mean_reduction}, full_fallback ${report.full_fallback_rate}\n`);
}
