// The import graph of src/ as dependency-cruiser resolves it (type-only imports included: a type that points
// up still ties the lower folder to the upper one), and the layer table read from src/ARCHITECTURE.md.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import ts from 'typescript';

const repositoryRoot = new URL('../../', import.meta.url).pathname;
const sourceRoot = join(repositoryRoot, 'src');

export interface ImportEdge {
  /** Repository-relative path of the importing file, e.g. `src/store/redis/redis-session-store.ts`. */
  from: string;
  /** Repository-relative path of the imported file. */
  to: string;
}

/** Every import between two files of src/ (tests excluded: they may reach anywhere they need to). */
export async function importEdges(): Promise<ImportEdge[]> {
  const result = await cruise(
    ['src'],
    {
      baseDir: repositoryRoot,
      tsPreCompilationDeps: true,
      exclude: { path: '\\.test\\.ts$' },
      doNotFollow: { path: 'node_modules' },
    },
    // NodeNext source imports `./x.js` for `./x.ts`.
    { extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned text instead of a graph');
  return result.output.modules.flatMap((module) =>
    module.dependencies
      .filter((dependency) => dependency.resolved.startsWith('src/'))
      .map((dependency) => ({ from: module.source, to: dependency.resolved })),
  );
}

/** The top-level folder under src/ a path belongs to (`src/store/redis/x.ts` → `store`). */
export function folderOf(path: string): string {
  const [root, folder] = path.split('/');
  if (root !== 'src' || folder === undefined || !folder.length) throw new Error(`not a path under src/: ${path}`);
  return folder.endsWith('.ts') ? '.' : folder;
}

/**
 * The layer table of src/ARCHITECTURE.md: the rows between `<!-- layers:start -->` and `<!-- layers:end -->`,
 * `| row | folders |`, bottom row first. Returns folder → row number.
 */
export function layerRows(): Map<string, number> {
  const text = readFileSync(join(sourceRoot, 'ARCHITECTURE.md'), 'utf8');
  const table = /<!-- layers:start -->([\s\S]*?)<!-- layers:end -->/.exec(text)?.[1];
  if (table === undefined) throw new Error('src/ARCHITECTURE.md has no layers table between its markers');
  const rows = new Map<string, number>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const row = Number(cells[1]);
    if (cells.length < 4 || !Number.isInteger(row)) continue;
    for (const folder of (cells[2] ?? '').split(',')) {
      const name = folder.trim().replace(/^`|\/?`$/g, '');
      if (name.length) rows.set(name, row);
    }
  }
  return rows;
}

/** The top-level folders of src/ as they are on disk. */
export function sourceFolders(): string[] {
  return readdirSync(sourceRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * `import(x)` and `require(x)` whose argument is not a string literal: a dependency no tool (and no reader)
 * can see. Returned as `path:line`.
 */
export function computedImports(): string[] {
  const found: string[] = [];
  for (const path of sourceFiles(sourceRoot)) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
        const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
        const argument = node.arguments[0];
        if ((isImport || isRequire) && (argument === undefined || !ts.isStringLiteralLike(argument))) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${path.slice(repositoryRoot.length)}:${line + 1}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
