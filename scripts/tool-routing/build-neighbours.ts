/**
 * Builds the classifier's neighbour index, data/tool-routing/toolset-neighbours.bin (neighbour-index.ts), from the
 * training writers' cases (neighbour-documents.ts); never the dev, held-out or pending cases.
 *   npx tsx scripts/tool-routing/build-neighbours.ts [--out FILE] [--check]
 * Deterministic: the same files give the same bytes, so --check tells whether the shipped file is current.
 */
import { join } from 'node:path';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { encodeNeighbourTable } from '../../src/classify/toolsets/neighbour-index-file.js';
import { neighboursRelativePath } from '../../src/classify/toolsets/neighbour-index.js';
import { option, writeOrCheck } from './command-line.js';
import { neighbourTable } from './neighbour-documents.js';

const root = packageRoot();
const table = neighbourTable(root);
const bytes = encodeNeighbourTable(table);
const target = option('--out') ?? join(root, neighboursRelativePath);
if (writeOrCheck(target, bytes, { current: 'neighbour index is up to date', stale: 'neighbour index differs from a fresh build' })) {
  process.stdout.write(`indexed ${table.norms.length} messages (${table.about.source}), ${(bytes.length / 1024 / 1024).toFixed(1)} MiB → ${target}\n`);
}
