/**
 * Models trained without some training files, for the out-of-fold experiments (leave one writer out, bar
 * calibration). Training is deterministic, so a model is cached on disk under a key made of every input that
 * shapes it: the trainer's and the features' sources, the training files' bytes, the word-cluster table and the
 * files left out. An experiment re-run after a decision-rule change then costs seconds, not a training per fold.
 * The cache lives outside the repository (TOOL_ROUTING_FOLD_CACHE, default the system temp directory).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MultilabelModel } from '../../src/classify/linear/multilabel-model.js';
import type { MultilabelModelJson } from '../../src/classify/linear/multilabel-model.js';
import { parseToolCases } from '../../src/eval/tools/tool-cases.js';
import type { ToolCase } from '../../src/eval/tools/tool-cases.js';
import type { NeighbourIndex } from '../../src/classify/toolsets/neighbour-index.js';
import { averageModels } from './average-models.js';
import { neighbourIndexWithout } from './neighbour-documents.js';
import { defaultSeed, trainingDirectory, trainingFiles, trainToolsetModel } from './training.js';

/** Sources that shape a trained model; a change to any of them makes every cached fold stale. */
const shapingSources = ['scripts/tool-routing/training.ts', 'src/classify/linear', 'src/classify/features', 'src/classify/toolsets/toolset-features.ts', 'src/classify/toolsets/word-clusters.ts', 'src/classify/toolsets/word-clusters-file.ts', 'data/tool-routing/word-clusters.bin'];

const digests = new Map<string, string>();

/**
 * Read once per process: the modules were loaded at its start, so a source edited while a long training runs must
 * not key the folds still to come (they are trained with the code as loaded, and would be cached under the new key).
 */
function sourcesDigest(root: string): string {
  const known = digests.get(root);
  if (known) return known;
  const digest = computeSourcesDigest(root);
  digests.set(root, digest);
  return digest;
}

function computeSourcesDigest(root: string): string {
  const hash = createHash('sha256');
  for (const source of shapingSources) {
    const path = join(root, source);
    const files = source.includes('.') ? [path] : readdirSync(path).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).sort().map((name) => join(path, name));
    for (const file of files) hash.update(file.slice(root.length)).update(readFileSync(file));
  }
  return hash.digest('hex');
}

/** The model train.ts would build from every training file except `excluded`, from the cache when it is there. */
export function modelWithout(root: string, excluded: readonly string[], seed?: number): MultilabelModelJson {
  const files = trainingFiles(root).filter((name) => !excluded.includes(name));
  const key = createHash('sha256').update(sourcesDigest(root)).update(seed === undefined || seed === defaultSeed ? 'default' : String(seed));
  for (const name of files) key.update(name).update(readFileSync(join(root, trainingDirectory, name)));
  const directory = process.env.TOOL_ROUTING_FOLD_CACHE ?? join(tmpdir(), 'tool-routing-folds');
  const path = join(directory, `${key.digest('hex').slice(0, 24)}.json`);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as MultilabelModelJson;
  const { model } = trainToolsetModel({ files, root, seed: seed ?? defaultSeed });
  mkdirSync(directory, { recursive: true });
  writeFileSync(`${path}.partial`, JSON.stringify(model));
  renameSync(`${path}.partial`, path);
  return model;
}

/** The mean of the single-seed models (averageModels) trained without `excluded`, each from the cache when it is there. */
export function soupWithout(root: string, excluded: readonly string[], seeds: readonly number[]): MultilabelModelJson {
  return averageModels(seeds.map((seed) => modelWithout(root, excluded, seed)));
}

export interface HeldOutFold {
  cases: ToolCase[];
  byId: Map<string, ToolCase>;
  trained: MultilabelModelJson;
  model: MultilabelModel;
  /** The neighbour index without the left-out files (the shipped one holds each held-out message as its own neighbour). */
  neighbours: NeighbourIndex;
}

/**
 * One leave-one-writer-out fold: a training file's cases (by id too) and the model trained without that file, or
 * without every file of `leftOut` (a fold of several writers left out together, `--together` in the scripts).
 */
export function heldOutFold(root: string, holdout: string, leftOut: readonly string[] = [holdout]): HeldOutFold {
  const cases = parseToolCases(readFileSync(join(root, trainingDirectory, holdout), 'utf8'), holdout);
  const trained = modelWithout(root, leftOut);
  return { cases, byId: new Map(cases.map((toolCase) => [toolCase.id, toolCase])), trained, model: new MultilabelModel(trained), neighbours: neighbourIndexWithout(root, leftOut) };
}
