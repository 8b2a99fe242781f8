import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NeighbourDocument } from '../../src/classify/toolsets/neighbour-index-build.js';
import { buildNeighbourTable } from '../../src/classify/toolsets/neighbour-index-build.js';
import type { NeighbourTable } from '../../src/classify/toolsets/neighbour-index-file.js';
import { NeighbourIndex } from '../../src/classify/toolsets/neighbour-index.js';
import { neighbourTerms } from '../../src/classify/toolsets/neighbour-terms.js';
import { needsToolLabel } from '../../src/classify/toolsets/toolset-classifier.js';
import { caseMessages, parseToolCases } from '../../src/eval/tools/tool-cases.js';
import { toolsetLabels, trainingDirectory, trainingFiles } from './training.js';

/** A term in more of the documents than this names no neighbour; its posting list would be most of a query's cost. */
const maximumDocumentShare = 0.01;

/**
 * The neighbour index's source (neighbour-index.ts): the training writers' cases (train-*.jsonl; the project's own
 * `toolsets | text` lines are few and were written to teach words, not to stand for a request), each its latest user
 * message and the toolsets its writer said it needs: required, and every member of a `required_any` group, since any
 * of them is what that writer would accept. `leftOut` names files a fold holds out, so its index never saw them.
 */
export function neighbourTable(root: string, leftOut: readonly string[] = []): NeighbourTable {
  const files = trainingFiles(root).filter((name) => name.endsWith('.jsonl') && !leftOut.includes(name));
  const labels = toolsetLabels.filter((label) => label !== needsToolLabel);
  const documents: NeighbourDocument[] = [];
  for (const name of files) {
    for (const toolCase of parseToolCases(readFileSync(join(root, trainingDirectory, name), 'utf8'), name)) {
      const latest = caseMessages(toolCase).filter((message) => message.role === 'user').at(-1);
      if (!latest || !latest.text.trim()) continue;
      const toolsets = new Set([...toolCase.required_toolsets, ...toolCase.required_any.flat()].filter((toolset) => labels.includes(toolset)));
      documents.push({ terms: neighbourTerms(latest.text), toolsets: [...toolsets].sort() });
    }
  }
  return buildNeighbourTable(documents, labels, { maximumDocumentShare, source: `${files.length} training-writer files` });
}

/** A fold's index, in memory: the training writers but the held-out ones. */
export function neighbourIndexWithout(root: string, leftOut: readonly string[]): NeighbourIndex {
  return new NeighbourIndex(neighbourTable(root, leftOut));
}
