/**
 * The toolset model's per-label calibration, fitted on out-of-writer logits: every case scored by a model that never
 * saw its writer (oof-logits.ts dumps). For each label p = sigmoid(z / T + s) of the raw logit z, with the temperature
 * T fixed (1 by default: no sharpening) and the shift s fitted by Newton's method (log loss, a light ridge towards 0),
 * or with `--free-temperature` both fitted (Platt scaling). Toolsets only the full registry has are fitted on
 * full-registry cases only (on the CLI registry the writer could not ask for them). The shift is folded into the bias
 * when applied (training.ts applyCalibration: bias + s·T), so the runtime model is unchanged.
 *
 * Why: the trainer's own temperatures are fitted on a random fifth of its examples, its own writers' phrasing, and
 * come out sharper than 1 (0.8-0.9); on a stranger's messages the model is less sure than that, and it underrates the
 * rare toolsets most (out-of-writer shifts +0.4 to +1.7 logits for kanban, video, x_search, computer_use...).
 *   npx tsx scripts/tool-routing/calibrate.ts /tmp/oof/g0.jsonl ... > data/tool-routing/toolset-calibration.json
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultRegistriesDirectory } from '../../src/eval/tools/registries.js';
import { toolsetLabels } from './training.js';

export interface LabelCalibration {
  labels: string[];
  temperatures: number[];
  shifts: number[];
}

interface OofRow {
  registry: string;
  logits: number[];
  targets: number[];
}

const sigmoid = (value: number): number => 1 / (1 + Math.exp(-value));

/** The shift s minimising Σ logloss(sigmoid(z / temperature + s), y) + ridge·s². */
export function fitShift(items: readonly { z: number; y: number }[], temperature: number, ridge = 1): number {
  let shift = 0;
  for (let iteration = 0; iteration < 100; iteration += 1) {
    let gradient = ridge * shift;
    let curvature = ridge;
    for (const { z, y } of items) {
      const p = sigmoid(z / temperature + shift);
      gradient += p - y;
      curvature += Math.max(p * (1 - p), 1e-12);
    }
    const step = gradient / curvature;
    shift -= step;
    if (Math.abs(step) < 1e-7) break;
  }
  return shift;
}

/** Platt scaling: a, b minimising Σ logloss(sigmoid(a·z + b), y) + ridge·((a − 1)² + b²). */
export function fitPlatt(items: readonly { z: number; y: number }[], ridge = 1): { a: number; b: number } {
  let a = 1;
  let b = 0;
  for (let iteration = 0; iteration < 50; iteration += 1) {
    let ga = ridge * (a - 1);
    let gb = ridge * b;
    let haa = ridge;
    let hab = 0;
    let hbb = ridge;
    for (const { z, y } of items) {
      const p = sigmoid(a * z + b);
      const d = p - y;
      const w = Math.max(p * (1 - p), 1e-12);
      ga += d * z;
      gb += d;
      haa += w * z * z;
      hab += w * z;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (det <= 0) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) < 1e-7 && Math.abs(db) < 1e-7) break;
  }
  return { a, b };
}

export function fitCalibration(rows: readonly OofRow[], labels: readonly string[], cliToolsets: ReadonlySet<string>, options: { ridge?: number; minimumPositives?: number; temperature?: number | 'free' } = {}): LabelCalibration {
  const temperatures: number[] = [];
  const shifts: number[] = [];
  const round = (value: number): number => Math.round(value * 1e4) / 1e4;
  labels.forEach((label, index) => {
    const fullOnly = label !== '_task' && !cliToolsets.has(label);
    const items = rows.filter((row) => row.targets[index] !== 2 && (!fullOnly || row.registry === 'full')).map((row) => ({ z: row.logits[index]!, y: row.targets[index]! }));
    const positives = items.filter((item) => item.y === 1).length;
    const temperature = options.temperature ?? 1;
    if (positives < (options.minimumPositives ?? 20)) {
      temperatures.push(temperature === 'free' ? 1 : temperature);
      shifts.push(0);
    } else if (temperature === 'free') {
      const { a, b } = fitPlatt(items, options.ridge ?? 1);
      temperatures.push(round(1 / Math.max(a, 0.05)));
      shifts.push(round(b));
    } else {
      temperatures.push(temperature);
      shifts.push(round(fitShift(items, temperature, options.ridge ?? 1)));
    }
  });
  return { labels: [...labels], temperatures, shifts };
}

/** The toolsets of Hermes's CLI registry (the others are full-registry only). */
export function cliToolsetNames(): Set<string> {
  const tools = JSON.parse(readFileSync(join(defaultRegistriesDirectory(), 'tools.cli.json'), 'utf8')) as { toolset?: string }[];
  return new Set(tools.flatMap((tool) => (typeof tool.toolset === 'string' ? [tool.toolset] : [])));
}

if (process.argv[1]?.endsWith('calibrate.ts')) {
  const files = process.argv.slice(2).filter((value) => !value.startsWith('--'));
  const rows = files.flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as OofRow));
  const calibration = fitCalibration(rows, toolsetLabels, cliToolsetNames(), process.argv.includes('--free-temperature') ? { temperature: 'free' } : {});
  process.stdout.write(`${JSON.stringify(calibration)}\n`);
}
