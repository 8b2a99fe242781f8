import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultToolRoutingConfig, thresholdFor } from '../../tools/config.js';
import { hermesTools } from '../../tools/test-support/fixtures.js';
import { readToolViews } from '../../tools/tool-shape.js';
import { buildToolsetRegistry } from '../../tools/toolsets/registry.js';
import { loadToolsetModel, packageRoot } from './model-file.js';
import { buildNeighbourTable } from './neighbour-index-build.js';
import { decodeNeighbourTable, encodeNeighbourTable } from './neighbour-index-file.js';
import { NeighbourIndex, neighboursRelativePath } from './neighbour-index.js';
import { neighbourTerms } from './neighbour-terms.js';
import { classifyToolsets } from './toolset-classifier.js';

const labels = ['file', 'terminal', 'tts', 'web'];

function indexOf(documents: [string, string[]][], maximumDocumentShare = 1): NeighbourIndex {
  const table = buildNeighbourTable(documents.map(([text, toolsets]) => ({ terms: neighbourTerms(text), toolsets })), labels, { maximumDocumentShare, source: 'test' });
  // Through the file format, so the test covers what the runtime loads.
  return new NeighbourIndex(decodeNeighbourTable(encodeNeighbourTable(table)));
}

describe('NeighbourIndex', () => {
  const index = indexOf([
    ['restructure the monorepo with turborepo workspaces', ['file', 'terminal']],
    ['move the packages of our monorepo into apps and libs', ['file', 'terminal']],
    ['read the announcement aloud in a calm voice', ['tts']],
    ['what is the weather in Lisbon', ['web']],
    ['what is the capital of Peru', []],
  ]);

  it('votes with the labels of the most similar messages, weighted by similarity', () => {
    const votes = index.vote(neighbourTerms('please restructure our monorepo'), 2);
    expect(votes.get('terminal')).toBeCloseTo(1, 6);
    expect(votes.get('file')).toBeCloseTo(1, 6);
    expect(votes.has('tts')).toBe(false);
    const spoken = index.vote(neighbourTerms('read this poem aloud'), 1);
    expect([...spoken.keys()]).toEqual(['tts']);
  });

  it('splits the vote by similarity when the nearest messages disagree', () => {
    const votes = index.vote(neighbourTerms('what is the weather in Peru'), 2);
    const web = votes.get('web')!;
    expect(web).toBeGreaterThan(0);
    expect(web).toBeLessThan(1);
    expect(votes.size).toBe(1);
  });

  it('has no vote for a message that shares no indexed word, and none twice (scores are reset)', () => {
    expect(index.vote(neighbourTerms('zzz qqq'), 3).size).toBe(0);
    const first = index.vote(neighbourTerms('restructure the monorepo'), 3);
    const second = index.vote(neighbourTerms('restructure the monorepo'), 3);
    expect([...second]).toEqual([...first]);
  });

  it('drops words in more than the given share of the messages', () => {
    const narrow = indexOf([
      ['the cat', ['web']],
      ['the dog', ['tts']],
      ['the bird', ['file']],
    ], 0.5);
    // "the" is in every message, so only "cat" can find a neighbour, and "the" alone finds none.
    expect(narrow.vote(neighbourTerms('the'), 3).size).toBe(0);
    expect([...narrow.vote(neighbourTerms('the cat'), 3).keys()]).toEqual(['web']);
  });
});

describe('classifyToolsets with neighbours', () => {
  const config = defaultToolRoutingConfig();
  const views = readToolViews(hermesTools('cli'), 'openai-chat')!;
  const available = buildToolsetRegistry(views).toolsets.map((toolset) => ({ name: toolset.name, toolNames: toolset.toolNames, descriptions: [toolset.description] }));
  const text = 'please restructure our monorepo the way the turborepo docs suggest';
  const classify = (neighbours?: { index: NeighbourIndex; bar: number; count: number }) =>
    classifyToolsets(loadToolsetModel(), {
      text,
      hasImage: false,
      available,
      thresholdFor: (toolset) => thresholdFor(config, toolset),
      descriptionThreshold: config.thresholds.description_match,
      abstainWhenTask: config.thresholds.abstain_when_task,
      clusters: null,
      ...(neighbours ? { neighbours } : {}),
    });
  // Written so the shipped model leaves text-to-speech out: only the neighbours can bring it.
  const spoken = indexOf([
    ['restructure our monorepo the turborepo way', ['tts']],
    ['the turborepo docs suggest a monorepo layout', ['tts']],
  ]);

  it('reports a toolset the nearest messages agree on and the selection left out', () => {
    expect(classify().toolsets).not.toContain('tts');
    const result = classify({ index: spoken, bar: 0.5, count: 2 });
    expect(Object.keys(result.neighbours ?? {})).toEqual(['tts']);
    expect(result.toolsets).not.toContain('tts');
  });

  it('is off at a bar of 1', () => {
    expect(classify({ index: spoken, bar: 1, count: 2 }).neighbours).toBeUndefined();
  });
});

describe('the shipped neighbour index', () => {
  it('is the index of the training writers it says it is', () => {
    const table = decodeNeighbourTable(readFileSync(join(packageRoot(), neighboursRelativePath)));
    expect(table.labels).toContain('terminal');
    expect(table.norms.length).toBeGreaterThan(100_000);
    expect(table.about.maximumDocumentShare).toBe(0.01);
    // Every posting list is at most 1% of the documents long: the bound on a query's cost.
    let longest = 0;
    for (let term = 0; term < table.terms.length; term += 1) longest = Math.max(longest, table.starts[term + 1]! - table.starts[term]!);
    expect(longest).toBeLessThanOrEqual(0.01 * table.norms.length);
  });
});
