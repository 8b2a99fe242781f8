// The dependency rule of src/ARCHITECTURE.md: a folder imports only folders on lower rows of the layer table,
// no file imports itself back through others, and every import names its module literally.
import { beforeAll, describe, expect, it } from 'vitest';
import { type ImportEdge, computedImports, folderOf, importEdges, layerRows, sourceFolders } from './import-graph.js';

/** Strongly connected groups of more than one file (Tarjan), each as its files in order. */
function cycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (next.get(node) ?? []).includes(node)) groups.push(group.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return groups;
}

describe('the dependency rule (src/ARCHITECTURE.md)', () => {
  let edges: ImportEdge[];
  const rows = layerRows();
  beforeAll(async () => {
    edges = await importEdges();
  }, 60_000);

  it('places every folder of src/ on a row of the layer table', () => {
    const unplaced = sourceFolders().filter((folder) => !rows.has(folder));
    expect(unplaced, 'add these folders to the layer table in src/ARCHITECTURE.md').toEqual([]);
    // The graph must be real: a resolver that silently found nothing would pass every rule below.
    expect(edges.length).toBeGreaterThan(500);
  });

  it('has no import cycle between files', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('imports across folders only downwards', () => {
    const upward = new Set<string>();
    for (const { from, to } of edges) {
      const fromFolder = folderOf(from);
      const toFolder = folderOf(to);
      if (fromFolder === toFolder) continue;
      const fromRow = rows.get(fromFolder);
      const toRow = rows.get(toFolder);
      if (fromRow === undefined || toRow === undefined || toRow >= fromRow) upward.add(`${from} -> ${toFolder}`);
    }
    expect([...upward].sort(), 'imports against the layer table: import downwards, or move the code to the layer it belongs to').toEqual([]);
  });

  it('names every imported module literally (no computed import() or require())', () => {
    expect(computedImports()).toEqual([]);
  });
});
