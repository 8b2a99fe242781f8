/**
 * What a first-turn tool-routing decision costs, with the word windows of `thresholds.window_need`, with the
 * neighbour vote (`thresholds.neighbour_vote`, the index loaded before timing) and with the part vote
 * (`thresholds.part_vote`, which reads the windows too) against the decision without them, in one process
 * over the same messages (the machines are shared and noisy, so only the ratio is worth comparing across runs).
 * Messages: every first turn of the blind sets in data/heldout-blind.
 *
 *   node --import tsx bench/first-turn-decision.ts [--rounds 5]
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadToolsetModel, packageRoot } from '../src/classify/toolsets/model-file.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../src/eval/tools/registries.js';
import { caseMessages, readToolCases } from '../src/eval/tools/tool-cases.js';
import { decideFirstTurnSurface } from '../src/tools/decide-surface.js';
import { toolRoutingConfigSchema } from '../src/tools/config.js';
import { percentile } from './support.js';

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(flags.rounds);
const model = loadToolsetModel();
const directory = defaultRegistriesDirectory();
const registries = { cli: loadRegistryTools(directory, 'cli'), full: loadRegistryTools(directory, 'full') };
const blind = join(packageRoot(), 'data', 'heldout-blind');
const inputs = readdirSync(blind)
  .filter((name) => /^tools-set\d+\.jsonl$/.test(name))
  .flatMap((name) => readToolCases(join(blind, name)))
  .map((toolCase) => ({ tools: registries[toolCase.registry as 'cli' | 'full'] ?? registries.cli, messages: caseMessages(toolCase) }))
  .filter((input) => input.messages.every((message) => message.role !== 'assistant'));

const variants = {
  'without windows, neighbours or parts': toolRoutingConfigSchema.parse({ thresholds: { window_need: 1, neighbour_vote: 1, part_vote: 1 } }),
  'windows only': toolRoutingConfigSchema.parse({ thresholds: { neighbour_vote: 1, part_vote: 1 } }),
  'windows and neighbours': toolRoutingConfigSchema.parse({ thresholds: { part_vote: 1 } }),
  'windows, neighbours and parts (default)': toolRoutingConfigSchema.parse({}),
};
const timings = new Map<string, number[]>(Object.keys(variants).map((name) => [name, []]));
// Warm every variant first, then alternate them within each round so drift in the machine's load hits all alike.
for (const config of Object.values(variants)) for (const input of inputs.slice(0, 200)) decideFirstTurnSurface({ ...input, format: 'openai-chat', config, model });
for (let round = 0; round < rounds; round += 1) {
  const entries = Object.entries(variants);
  for (const [position, input] of inputs.entries()) {
    // The variant that runs second on a message finds it in the caches the first warmed: rotate who goes first.
    const shift = (position + round) % entries.length;
    for (const [name, config] of [...entries.slice(shift), ...entries.slice(0, shift)]) {
      const started = process.hrtime.bigint();
      decideFirstTurnSurface({ ...input, format: 'openai-chat', config, model });
      timings.get(name)!.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
}
const summary = [...timings].map(([name, values]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { name, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), mean: values.reduce((sum, value) => sum + value, 0) / values.length };
});
const baseline = summary[0]!;
console.log(`${inputs.length} first turns × ${rounds} rounds`);
for (const row of summary) console.log(`${row.name.padEnd(40)} p50 ${row.p50.toFixed(3)} ms  p99 ${row.p99.toFixed(3)} ms  mean ${row.mean.toFixed(3)} ms`);
for (const row of summary.slice(1)) console.log(`ratio (${row.name} / ${baseline.name}): p50 ${(row.p50 / baseline.p50).toFixed(2)}×  p99 ${(row.p99 / baseline.p99).toFixed(2)}×  mean ${(row.mean / baseline.mean).toFixed(2)}×`);
