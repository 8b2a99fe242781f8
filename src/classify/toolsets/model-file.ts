import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MultilabelModelJson } from '../linear/multilabel-model.js';
import { MultilabelModel } from '../linear/multilabel-model.js';

/** Where the trainer writes and the runtime reads the shipped weights, relative to the package root. */
export const toolsetModelRelativePath = 'data/tool-routing/toolset-model.json';

/** The package root: the nearest ancestor of this module holding package.json (works from src/ and dist/). */
export function packageRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(directory, 'package.json'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) throw new Error('package root not found');
    directory = parent;
  }
}

let cached: MultilabelModel | undefined;

/** Loads the shipped toolset model once (about a megabyte of JSON: parse it at start-up, not per request). */
export function loadToolsetModel(path = join(packageRoot(), toolsetModelRelativePath)): MultilabelModel {
  if (!cached) cached = new MultilabelModel(JSON.parse(readFileSync(path, 'utf8')) as MultilabelModelJson);
  return cached;
}
