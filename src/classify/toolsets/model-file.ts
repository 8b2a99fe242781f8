import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MultilabelModel } from '../linear/multilabel-model.js';
import { openPackedModel } from '../linear/packed-model-file.js';

/** Where the trainer writes and the runtime reads the shipped weights (packed-model-file.ts), relative to the package root. */
export const toolsetModelRelativePath = 'data/tool-routing/toolset-model.bin';

let root: string | undefined;

/**
 * The package root: the nearest ancestor of this module holding package.json (works from src/ and dist/). Found
 * once: the classifier asks for its tables on every request (and per clause), and the search stats the disk.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(directory, 'package.json'))) return (root = directory);
    const parent = dirname(directory);
    if (parent === directory) throw new Error('package root not found');
    directory = parent;
  }
}

let cached: MultilabelModel | undefined;

/**
 * The shipped toolset model, opened on first use (the first tool-routed request): its header and row buckets
 * read then, its 13 MB of Int16 weights a page at a time as predictions first need their rows
 * (`openPackedModel`), so the first request reads a few hundred pages of them instead of the whole file.
 */
export function loadToolsetModel(path?: string): MultilabelModel {
  if (!cached) cached = new MultilabelModel(openPackedModel(path ?? join(packageRoot(), toolsetModelRelativePath)));
  return cached;
}
