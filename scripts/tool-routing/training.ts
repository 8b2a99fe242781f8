/**
 * The toolset classifier's training, as a function: train.ts writes its result to the shipped file, and
 * experiments (leave-one-writer-out, calibration curves) call it with a subset of the training files so they
 * measure exactly what the shipped trainer would build.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolsetFeatures } from '../../src/classify/toolsets/toolset-features.js';
import { loadWordClusters } from '../../src/classify/toolsets/word-clusters.js';
import type { MultilabelExample } from '../../src/classify/linear/train-multilabel.js';
import { fitTemperature, ignoredTarget, trainMultilabel } from '../../src/classify/linear/train-multilabel.js';
import type { MultilabelModelJson } from '../../src/classify/linear/multilabel-model.js';
import { MultilabelModel } from '../../src/classify/linear/multilabel-model.js';
import { seededRandom } from '../../src/classify/linear/seeded-random.js';
import { dominantWritingSystem } from '../../src/classify/features/writing-system.js';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { needsToolLabel } from '../../src/classify/toolsets/toolset-classifier.js';
import { hermesToolsets } from '../../src/tools/toolsets/hermes-map.js';
import { defaultCriticalToolsets } from '../../src/tools/config.js';
import { caseMessages, parseToolCases } from '../../src/eval/tools/tool-cases.js';

export const defaultSeed = 20261130;
/**
 * 2^20 buckets: about a tenth of them carry a trained weight, so a word no training line used (another script, a new
 * name) mostly lands in an empty bucket and adds nothing. With 2^18 four fifths of the buckets carried weight and an
 * unseen word drew a collision's weight, mostly negative for every toolset (src/tools/ARCHITECTURE.md, "Empty buckets").
 */
const featureBits = 20;
export const trainingDirectory = 'data/tool-routing';

interface Labelled {
  text: string;
  toolsets: string[];
  /** Toolsets the writer allowed but did not require: neither a positive nor a negative for them. */
  ignored?: string[];
  hasImage?: boolean;
}

export const toolsetLabels = [...Object.keys(hermesToolsets.toolsets).filter((name) => name !== 'tool_search').sort(), needsToolLabel];

/**
 * The training files: `train.txt` and every `train-*.txt` (`toolsets | text` lines) and `train-*.jsonl` (cases in
 * the eval format, written by other people) beside it, sorted so the data hash and the weights are reproducible.
 */
export function trainingFiles(root = packageRoot()): string[] {
  return readdirSync(join(root, trainingDirectory))
    .filter((name) => /^train(-[\w-]+)?\.(txt|jsonl)$/.test(name))
    .sort();
}

function readLines(source: string, name: string): Labelled[] {
  const written: Labelled[] = [];
  for (const line of source.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const separator = line.indexOf(' | ');
    if (separator < 0) throw new Error(`bad training line in ${name}: ${line}`);
    const head = line.slice(0, separator).trim();
    const toolsets = head === '-' ? [] : head.split(',').map((toolset) => toolset.trim());
    for (const toolset of toolsets) if (!toolsetLabels.includes(toolset)) throw new Error(`unknown toolset ${toolset} in ${name}: ${line}`);
    const text = line.slice(separator + 3).trim();
    written.push({ text: text.replace(/^\[img\] /, ''), toolsets, hasImage: text.startsWith('[img] ') });
  }
  return written;
}

/**
 * Cases in the eval format: the first user message is the text. A case with an assistant turn is left out: its
 * labels are the needs of its last user message in context (EVALS), and taught to the first message they would be
 * needs it never stated; a resumed decision classifies the latest message itself (`decide-surface.ts`). On the
 * honest fold (writers 48–56) leaving those ~1,000 cases out took 89 misses to 84 at the same median, CLI median
 * 0.766 → 0.783. `required_toolsets` are positives; in a
 * `required_any` group the first toolset the writer listed is the positive and the others are left out of the loss
 * (any of them serves, so the model is neither taught to want nor to refuse them), as are the acceptable extras.
 * Toolsets the model has no label for (another registry's) are skipped.
 */
function readCases(source: string, name: string): Labelled[] {
  return parseToolCases(source, name).flatMap((toolCase) => {
    const messages = caseMessages(toolCase);
    if (messages.some((message) => message.role === 'assistant')) return [];
    const user = messages.find((message) => message.role === 'user');
    if (!user || !user.text.trim()) return [];
    const known = (toolset: string) => toolsetLabels.includes(toolset);
    const toolsets = new Set(toolCase.required_toolsets.filter(known));
    const ignored = new Set(toolCase.acceptable_extra_toolsets.filter(known));
    for (const group of toolCase.required_any) {
      const usable = group.filter(known);
      if (usable.some((toolset) => toolsets.has(toolset))) continue;
      if (usable[0]) toolsets.add(usable[0]);
      for (const toolset of usable.slice(1)) ignored.add(toolset);
    }
    for (const toolset of toolsets) ignored.delete(toolset);
    return [{ text: user.text, toolsets: [...toolsets], ignored: [...ignored], hasImage: user.hasImage }];
  });
}

/**
 * A per-label calibration (calibrate.ts) in place of the model's temperatures: each label's temperature T and shift s
 * give p = sigmoid(z / T + s), with s folded into the bias (bias + s·T) so the runtime model is unchanged.
 */
export interface LabelCalibrationInput {
  labels: readonly string[];
  temperatures: readonly number[];
  shifts: readonly number[];
}

export function applyCalibration(model: { labels: readonly string[]; bias: number[]; temperatures: number[] }, calibration: LabelCalibrationInput): void {
  model.labels.forEach((label, index) => {
    const at = calibration.labels.indexOf(label);
    if (at < 0) return;
    const temperature = calibration.temperatures[at]!;
    model.temperatures[index] = temperature;
    model.bias[index] = Math.round((model.bias[index]! + calibration.shifts[at]! * temperature) * 1e4) / 1e4;
  });
}

export interface TrainingResult {
  model: MultilabelModelJson;
  examples: number;
  written: number;
}

/** Trains on the named files of data/tool-routing (all of them by default). Deterministic for the same files and seed. */
export function trainToolsetModel(options: { files?: readonly string[]; seed?: number; root?: string; calibration?: LabelCalibrationInput } = {}): TrainingResult {
  const root = options.root ?? packageRoot();
  const seed = options.seed ?? defaultSeed;
  const files = options.files ?? trainingFiles(root);
  const sources = files.map((name) => ({ name, text: readFileSync(join(root, trainingDirectory, name), 'utf8') }));
  const written = sources.flatMap(({ name, text }) => (name.endsWith('.jsonl') ? readCases(text, name) : readLines(text, name)));
  const dataHash = createHash('sha256')
    .update(sources.map(({ text }) => text).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const labels = toolsetLabels;
  const clusters = loadWordClusters();

  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const isChinese = (text: string): boolean => /[\u4e00-\u9fff]/.test(text);
  const englishLeads = ['please ', 'can you ', 'could you ', 'hey, ', 'quick one: ', 'I need you to ', 'would you mind, ', ''];
  const chineseLeads = ['请', '帮我', '麻烦', '你能', ''];
  const englishNegations = ["don't ", 'do not ', "please don't ", 'no need to ', 'never '];
  const chineseNegations = ['不要', '别', '不用', '不需要'];
  const englishReports = [
    (text: string) => `the log says "${text}", what does that mean?`,
    (text: string) => `my coworker wrote '${text}' in the ticket. is that a normal thing to ask?`,
    (text: string) => `someone on the forum said "${text}" - why would they say that?`,
  ];
  const chineseReports = [(text: string) => `日志里写着“${text}”，这是什么意思？`, (text: string) => `同事说“${text}”，为什么要这样做？`];
  const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);
  const plainOnly = (example: Labelled) => example.toolsets.length > 0 && !example.text.includes('\n') && example.text.length < 400;

  /** Generated variants teach the framing features: polite leads keep labels, negation and quotes remove them. */
  function variants(example: Labelled): Labelled[] {
    const out: Labelled[] = [example];
    const chinese = isChinese(example.text);
    const lead = chinese ? pick(chineseLeads) : pick(englishLeads);
    out.push({ ...example, text: `${lead}${chinese ? example.text : lowerFirst(example.text)}` });
    if (plainOnly(example) && !/^(what|which|who|is|are|how|when|where|why|do|does|can)\b/i.test(example.text)) {
      if (random() < 0.45) {
        const negation = chinese ? pick(chineseNegations) : pick(englishNegations);
        out.push({ text: `${negation}${chinese ? example.text : lowerFirst(example.text)}`, toolsets: [] });
      }
      if (random() < 0.35) {
        const report = chinese ? pick(chineseReports) : pick(englishReports);
        out.push({ text: report(example.text), toolsets: [] });
      }
    }
    return out;
  }

  /** "Don't A, just B" → B's toolsets: the negation cue alone must not mean "no tool". */
  function compositions(): Labelled[] {
    const withTools = written.filter(plainOnly);
    const out: Labelled[] = [];
    for (let count = 0; count < 160; count += 1) {
      const first = pick(withTools);
      const second = pick(withTools);
      if (isChinese(first.text) !== isChinese(second.text) || first === second) continue;
      if (isChinese(first.text)) out.push({ text: `${pick(chineseNegations)}${first.text}，只要${second.text}`, toolsets: second.toolsets, ignored: second.ignored ?? [] });
      else out.push({ text: `${pick(englishNegations)}${lowerFirst(first.text)}, just ${lowerFirst(second.text)}`, toolsets: second.toolsets, ignored: second.ignored ?? [] });
    }
    const greetings = written.filter((example) => example.toolsets.length === 0 && example.text.length < 20);
    for (let count = 0; count < 80; count += 1) {
      const greeting = pick(greetings);
      const task = pick(withTools);
      out.push({ text: `${greeting.text} ${task.text}`, toolsets: task.toolsets, ignored: task.ignored ?? [] });
    }
    return out;
  }

  /**
   * Two needs in one message: two written requests joined the way people chain asks, labelled with the union.
   * Teaches the model that a second need in the same message still counts (the commonest multi-need miss).
   */
  function multiNeeds(): Labelled[] {
    const withTools = written.filter((example) => plainOnly(example) && !example.hasImage);
    const englishJoins = [', then ', ' and also ', '. After that, ', ' and ', '; also ', '. Oh and ', ' - and when done, '];
    const chineseJoins = ['，然后', '，再', '，顺便', '。另外'];
    const out: Labelled[] = [];
    for (let count = 0; count < 900; count += 1) {
      const first = pick(withTools);
      const second = pick(withTools);
      if (first === second || isChinese(first.text) !== isChinese(second.text)) continue;
      const joined = isChinese(first.text) ? `${first.text}${pick(chineseJoins)}${second.text}` : `${first.text}${pick(englishJoins)}${lowerFirst(second.text)}`;
      const toolsets = [...new Set([...first.toolsets, ...second.toolsets])];
      const ignored = [...new Set([...(first.ignored ?? []), ...(second.ignored ?? [])])].filter((toolset) => !toolsets.includes(toolset));
      out.push({ text: joined, toolsets, ignored });
    }
    return out;
  }

  /** Typed in a hurry: a dropped, doubled or swapped letter in one or two words, or no capitals and no punctuation. */
  function typos(): Labelled[] {
    const out: Labelled[] = [];
    for (const example of written) {
      if (isChinese(example.text) || random() < 0.5) continue;
      const words = example.text.split(' ');
      for (let edit = 0; edit < 2; edit += 1) {
        const index = Math.floor(random() * words.length);
        const word = words[index]!;
        if (word.length < 4) continue;
        const at = 1 + Math.floor(random() * (word.length - 2));
        const kind = random();
        words[index] = kind < 0.4 ? word.slice(0, at) + word.slice(at + 1) : kind < 0.7 ? word.slice(0, at) + word[at] + word.slice(at) : word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
      }
      const text = random() < 0.5 ? words.join(' ').toLowerCase().replace(/[.,!?]/g, '') : words.join(' ');
      out.push({ ...example, text });
    }
    return out;
  }

  const examples: Labelled[] = [...written.flatMap(variants), ...compositions(), ...multiNeeds(), ...typos()];
  // Positives are rare for every label (tens against a thousand negatives); weighting them keeps the
  // probabilities of real requests from collapsing towards 0, more so for the critical toolsets.
  const criticalWeight = labels.map((label) => (defaultCriticalToolsets.includes(label) ? 4 : 3));

  // A feature gets a weight only when at least two written lines carry it: the generated variants copy a line's
  // words, so counting examples would keep every one-off word (and typo) of every line, and those buckets are what an
  // unseen word collides with.
  const lineCounts = new Map<number, number>();
  for (const example of written) for (const bucket of toolsetFeatures(example.text, example.hasImage ?? false, featureBits, undefined, clusters).indices) lineCounts.set(bucket, (lineCounts.get(bucket) ?? 0) + 1);
  const evidenced = new Set([...lineCounts].filter(([, count]) => count >= 2).map(([bucket]) => bucket));

  function encode(items: readonly Labelled[]): MultilabelExample[] {
    return items.map((item) => {
      const targets = new Uint8Array(labels.length);
      for (const toolset of item.ignored ?? []) targets[labels.indexOf(toolset)] = ignoredTarget;
      for (const toolset of item.toolsets) targets[labels.indexOf(toolset)] = 1;
      if (item.toolsets.length > 0) targets[labels.indexOf(needsToolLabel)] = 1;
      // Values stay those of the whole feature list (1/sqrt of its length), as at run time where unseen features
      // count in the length and find no row.
      const features = toolsetFeatures(item.text, item.hasImage ?? false, featureBits, undefined, clusters);
      const kept = [...features.indices.keys()].filter((position) => evidenced.has(features.indices[position]!));
      return { features: { indices: Int32Array.from(kept, (position) => features.indices[position]!), values: Float32Array.from(kept, (position) => features.values[position]!) }, targets };
    });
  }

  const trainingOptions = { labels, featureBits, seed, epochs: 25, learningRate: 0.4, l2: 1e-5, positiveWeight: criticalWeight, dataHash, pruneBelow: 0.02, minBucketCount: 2 };

  // Calibration on a random fifth of the examples. Holding out whole writers instead (each writer's lines scored by
  // a model trained on the others) was measured leave-one-writer-out and was worse at equal reduction: its softer
  // temperatures widen every toolset alike, where cost-aware thresholds (the classifier) widen the cheap ones.
  // With a calibration fitted on out-of-writer logits (calibrate.ts; train.ts passes data/tool-routing/
  // toolset-calibration.json) the random fifth is not needed: its fold is skipped, and the weights are the same.
  const temperatures = options.calibration ? labels.map(() => 1) : temperaturesByExample();

  /** Calibration on a random fifth of the examples (the model's own writers' phrasing). */
  function temperaturesByExample(): number[] {
    const order = examples.map((_, index) => index);
    for (let index = order.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other]!, order[index]!];
    }
    const foldSize = Math.floor(examples.length / 5);
    const heldOut = new Set(order.slice(0, foldSize));
    const foldModel = new MultilabelModel(trainMultilabel(encode(examples.filter((_, index) => !heldOut.has(index))), trainingOptions));
    const heldOutEncoded = encode(examples.filter((_, index) => heldOut.has(index)));
    return fitTemperatures(heldOutEncoded.map((example) => ({ logits: foldModel.logits(example.features), targets: example.targets })), 2.5);
  }

  // A label with few held-out positives cannot be calibrated: its fit would only sharpen the negatives (and cut
  // recall), so it keeps temperature 1; fitted values are clamped to a sane band for the same reason.
  function fitTemperatures(heldOutLogits: readonly { logits: Float64Array; targets: Uint8Array }[], highest: number): number[] {
    return labels.map((_, label) => {
      const items = heldOutLogits.map((item) => ({ logit: item.logits[label]!, target: item.targets[label]! })).filter((item) => item.target !== ignoredTarget);
      if (items.filter((item) => item.target === 1).length < 8) return 1;
      return Math.min(Math.max(fitTemperature(items), 0.8), highest);
    });
  }

  const model = trainMultilabel(encode(examples), trainingOptions);
  model.temperatures = temperatures;
  const writingSystems = new Map<string, number>();
  for (const example of written) {
    const system = dominantWritingSystem(example.text);
    writingSystems.set(system, (writingSystems.get(system) ?? 0) + 1);
  }
  model.trainedOn.writingSystems = Object.fromEntries([...writingSystems].sort(([a], [b]) => (a < b ? -1 : 1)));
  if (options.calibration) applyCalibration(model, options.calibration);
  return { model, examples: examples.length, written: written.length };
}
