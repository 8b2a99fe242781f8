/**
 * Trains the first-turn toolset classifier and writes data/tool-routing/toolset-model.json.
 * Deterministic: the same train.txt and seed give the same file byte for byte.
 *   npx tsx scripts/tool-routing/train.ts [--seed N] [--check]
 * Trains only on data/tool-routing/train.txt (plus generated variants of it); never on the dev or held-out
 * cases, nor on anything under ../shared.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolsetFeatures } from '../../src/classify/toolsets/toolset-features.js';
import { loadWordClusters } from '../../src/classify/toolsets/word-clusters.js';
import type { MultilabelExample } from '../../src/classify/linear/train-multilabel.js';
import { fitTemperature, trainMultilabel } from '../../src/classify/linear/train-multilabel.js';
import { MultilabelModel } from '../../src/classify/linear/multilabel-model.js';
import { seededRandom } from '../../src/classify/linear/seeded-random.js';
import { packageRoot, toolsetModelRelativePath } from '../../src/classify/toolsets/model-file.js';
import { needsToolLabel } from '../../src/classify/toolsets/toolset-classifier.js';
import { hermesToolsets } from '../../src/tools/toolsets/hermes-map.js';
import { defaultCriticalToolsets } from '../../src/tools/config.js';

const featureBits = 18;
const seedArgument = process.argv.indexOf('--seed');
const seed = seedArgument > 0 ? Number(process.argv[seedArgument + 1]) : 20261130;
const root = packageRoot();

interface Labelled {
  text: string;
  toolsets: string[];
  hasImage?: boolean;
}

const labels = [...Object.keys(hermesToolsets.toolsets).filter((name) => name !== 'tool_search').sort(), needsToolLabel];
// train.txt and every train-*.txt beside it (sorted, so the data hash and the weights are reproducible).
const trainingFiles = readdirSync(join(root, 'data/tool-routing')).filter((name) => /^train(-[\w-]+)?\.txt$/.test(name)).sort();
const source = trainingFiles.map((name) => readFileSync(join(root, 'data/tool-routing', name), 'utf8')).join('\n');
const clusters = loadWordClusters();
const written: Labelled[] = [];
for (const line of source.split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const separator = line.indexOf(' | ');
  if (separator < 0) throw new Error(`bad training line: ${line}`);
  const head = line.slice(0, separator).trim();
  const toolsets = head === '-' ? [] : head.split(',').map((name) => name.trim());
  for (const toolset of toolsets) if (!labels.includes(toolset)) throw new Error(`unknown toolset ${toolset} in: ${line}`);
  const text = line.slice(separator + 3).trim();
  written.push({ text: text.replace(/^\[img\] /, ''), toolsets, hasImage: text.startsWith('[img] ') });
}

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

/** Generated variants teach the framing features: polite leads keep labels, negation and quotes remove them. */
function variants(example: Labelled): Labelled[] {
  const out: Labelled[] = [example];
  const chinese = isChinese(example.text);
  const lead = chinese ? pick(chineseLeads) : pick(englishLeads);
  out.push({ text: `${lead}${chinese ? example.text : lowerFirst(example.text)}`, toolsets: example.toolsets, hasImage: example.hasImage ?? false });
  if (example.toolsets.length > 0 && !/^(what|which|who|is|are|how|when|where|why|do|does|can)\b/i.test(example.text)) {
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

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** "Don't A, just B" → B's toolsets: the negation cue alone must not mean "no tool". */
function compositions(): Labelled[] {
  const withTools = written.filter((example) => example.toolsets.length > 0);
  const out: Labelled[] = [];
  for (let count = 0; count < 160; count += 1) {
    const first = pick(withTools);
    const second = pick(withTools);
    if (isChinese(first.text) !== isChinese(second.text) || first === second) continue;
    if (isChinese(first.text)) out.push({ text: `${pick(chineseNegations)}${first.text}，只要${second.text}`, toolsets: second.toolsets });
    else out.push({ text: `${pick(englishNegations)}${lowerFirst(first.text)}, just ${lowerFirst(second.text)}`, toolsets: second.toolsets });
  }
  const greetings = written.filter((example) => example.toolsets.length === 0 && example.text.length < 20);
  for (let count = 0; count < 80; count += 1) {
    const greeting = pick(greetings);
    const task = pick(withTools);
    out.push({ text: `${greeting.text} ${task.text}`, toolsets: task.toolsets });
  }
  return out;
}

/**
 * Two needs in one message: two written requests joined the way people chain asks, labelled with the union.
 * Teaches the model that a second need in the same message still counts (the commonest multi-need miss).
 */
function multiNeeds(): Labelled[] {
  const withTools = written.filter((example) => example.toolsets.length > 0 && !example.hasImage);
  const englishJoins = [', then ', ' and also ', '. After that, ', ' and ', '; also ', '. Oh and ', ' - and when done, '];
  const chineseJoins = ['，然后', '，再', '，顺便', '。另外'];
  const out: Labelled[] = [];
  for (let count = 0; count < 900; count += 1) {
    const first = pick(withTools);
    const second = pick(withTools);
    if (first === second || isChinese(first.text) !== isChinese(second.text)) continue;
    const joined = isChinese(first.text) ? `${first.text}${pick(chineseJoins)}${second.text}` : `${first.text}${pick(englishJoins)}${lowerFirst(second.text)}`;
    out.push({ text: joined, toolsets: [...new Set([...first.toolsets, ...second.toolsets])] });
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
    out.push({ text, toolsets: example.toolsets, hasImage: example.hasImage ?? false });
  }
  return out;
}

const examples: Labelled[] = [...written.flatMap(variants), ...compositions(), ...multiNeeds(), ...typos()];
// Positives are rare for every label (tens against a thousand negatives); weighting them keeps the
// probabilities of real requests from collapsing towards 0, more so for the critical toolsets.
const criticalWeight = labels.map((label) => (defaultCriticalToolsets.includes(label) ? 4 : 3));
const dataHash = createHash('sha256').update(source).digest('hex').slice(0, 16);

function encode(items: readonly Labelled[]): MultilabelExample[] {
  return items.map((item) => {
    const targets = new Uint8Array(labels.length);
    for (const toolset of item.toolsets) targets[labels.indexOf(toolset)] = 1;
    if (item.toolsets.length > 0) targets[labels.indexOf(needsToolLabel)] = 1;
    return { features: toolsetFeatures(item.text, item.hasImage ?? false, featureBits, undefined, clusters), targets };
  });
}

const options = { labels, featureBits, seed, epochs: 25, learningRate: 0.4, l2: 1e-5, positiveWeight: criticalWeight, dataHash, pruneBelow: 0.02, minBucketCount: 2 };

// Calibration: fit one temperature per label on a fold the model did not see, then train on everything.
const order = examples.map((_, index) => index);
for (let index = order.length - 1; index > 0; index -= 1) {
  const other = Math.floor(random() * (index + 1));
  [order[index], order[other]] = [order[other]!, order[index]!];
}
const foldSize = Math.floor(examples.length / 5);
const heldOut = new Set(order.slice(0, foldSize));
const foldModel = new MultilabelModel(trainMultilabel(encode(examples.filter((_, index) => !heldOut.has(index))), options));
const heldOutEncoded = encode(examples.filter((_, index) => heldOut.has(index)));
const heldOutLogits = heldOutEncoded.map((example) => ({ logits: foldModel.logits(example.features), targets: example.targets }));
// A label with few held-out positives cannot be calibrated: its fit would only sharpen the negatives (and cut
// recall), so it keeps temperature 1; fitted values are clamped to a sane band for the same reason.
const temperatures = labels.map((_, label) => {
  const items = heldOutLogits.map((item) => ({ logit: item.logits[label]!, target: item.targets[label]! }));
  if (items.filter((item) => item.target === 1).length < 8) return 1;
  return Math.min(Math.max(fitTemperature(items), 0.8), 2.5);
});

const model = trainMultilabel(encode(examples), options);
model.temperatures = temperatures;
const text = `${JSON.stringify(model)}\n`;
const target = join(root, toolsetModelRelativePath);
if (process.argv.includes('--check')) {
  const same = readFileSync(target, 'utf8') === text;
  process.stdout.write(same ? 'weights are up to date\n' : 'weights differ from a fresh training run\n');
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(target, text);
  process.stdout.write(`trained on ${examples.length} examples (${written.length} written), ${Object.keys(model.rows).length} weight rows, ${(text.length / 1024).toFixed(0)} KiB → ${toolsetModelRelativePath}\n`);
  process.stdout.write(`temperatures: ${labels.map((label, index) => `${label}=${temperatures[index]}`).join(' ')}\n`);
}
