/**
 * The unseen checks a routing change is measured on before it ships (src/tools/ARCHITECTURE.md, "Twenty-third" to
 * "Thirty-ninth session"): groups of cases no model or rule was trained on, each a TOTAL line of eval-model-file.ts.
 *   npx tsx scripts/tool-routing/unseen-checks.ts data/tool-routing/toolset-model.bin [--calibration FILE] [--config JSON]
 * G1: pending writers 94–99 and 116–119 (their misses read long ago); G2–G21: the frozen blind sets, by the session that
 * wrote them (G19 with the two negation sets); P: pending writers 198–203 and P2: pending writers 266–268, whose misses
 * nobody has read (the cleanest checks); P3: pending writers 283–294 (the misses of 283 and 291 read). Groups run one
 * after another, so their order and figures are the same on a busy machine; the options pass through to every group.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';

const root = packageRoot();
const range = (first: number, last: number): number[] => Array.from({ length: last - first + 1 }, (_, index) => first + index);
const pending = (writers: number[]): string[] => writers.map((writer) => `data/pending-writers/train-writer-${writer}.jsonl`);
const blind = (sets: number[]): string[] => sets.map((set) => `data/heldout-blind/tools-set${set}.jsonl`);

const unseenGroups: Record<string, string[]> = {
  G1: pending([...range(94, 99), ...range(116, 119)]),
  G2: [...blind(range(9, 35)), 'data/heldout-blind/tools-fresh-1.jsonl', 'data/heldout-blind/tools-fresh-2.jsonl'],
  G3: blind(range(36, 47)),
  G4: blind(range(48, 58)),
  G5: blind(range(59, 67)),
  G6: blind(range(68, 91)),
  G7: blind(range(92, 111)),
  G8: blind(range(112, 123)),
  G9: blind(range(124, 139)),
  G10: blind(range(140, 155)),
  G11: blind(range(156, 169)),
  G12: blind(range(170, 185)),
  G13: blind(range(186, 201)),
  G14: blind(range(202, 213)),
  G15: blind(range(214, 221)),
  G16: blind(range(222, 229)),
  G17: blind(range(230, 237)),
  G18: blind(range(238, 249)),
  G19: [...blind(range(250, 257)), 'data/heldout-blind/tools-negation-1.jsonl', 'data/heldout-blind/tools-negation-2.jsonl'],
  G20: blind(range(258, 269)),
  G21: blind(range(270, 281)),
  P: pending(range(198, 203)),
  P2: pending(range(266, 268)),
  P3: pending(range(283, 294)),
};

const [modelPath, ...options] = process.argv.slice(2);
if (!modelPath || modelPath.startsWith('--')) throw new Error('usage: unseen-checks.ts MODEL.bin [--calibration FILE] [--config JSON]');
// A missing file would change a group's figure without a word, so it stops the run instead.
const missing = Object.values(unseenGroups).flat().filter((file) => !existsSync(join(root, file)));
if (missing.length > 0) throw new Error(`unseen-checks.ts: missing ${missing.join(', ')}`);
let misses = 0;
for (const [group, files] of Object.entries(unseenGroups)) {
  const run = spawnSync('npx', ['tsx', 'scripts/tool-routing/eval-model-file.ts', modelPath, ...files, ...options], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${group}: eval-model-file.ts failed\n${run.stderr}`);
  const total = run.stdout.split('\n').find((line) => line.startsWith('TOTAL:')) ?? '';
  misses += Number(/\(misses (\d+)\)/.exec(total)?.[1] ?? 0);
  process.stdout.write(`${group} (${files.length} files) ${total.replace(/^TOTAL: /, '')}\n`);
}
process.stdout.write(`misses in all groups: ${misses}\n`);
