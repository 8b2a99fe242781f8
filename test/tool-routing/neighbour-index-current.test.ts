import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { encodeNeighbourTable } from '../../src/classify/toolsets/neighbour-index-file.js';
import { neighboursRelativePath } from '../../src/classify/toolsets/neighbour-index.js';
import { neighbourIndexWithout, neighbourTable } from '../../scripts/tool-routing/neighbour-documents.js';

// The shipped index must be the one the training files give today (a training file added without a rebuild would
// leave its messages out of the vote), and a fold's index must not hold its held-out writer's messages.
describe('the neighbour index of the training writers', () => {
  const root = packageRoot();
  // Built once: reading and indexing the 263 files takes seconds.
  const full = neighbourTable(root);

  it('is the shipped file, byte for byte', () => {
    const fresh = encodeNeighbourTable(full);
    expect(Buffer.compare(Buffer.from(fresh), readFileSync(join(root, neighboursRelativePath)))).toBe(0);
  });

  it("leaves a fold's held-out writer out, every message of it", () => {
    const held = 'train-writer-1.jsonl';
    const messages = readFileSync(join(root, 'data/tool-routing', held), 'utf8').split('\n').filter((line) => line.trim()).length;
    const without = neighbourIndexWithout(root, [held]);
    // Every case of writer 1 is a single user message with text, so the index loses exactly that many documents.
    expect(full.norms.length - without.size).toBe(messages);
  });
});
