import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/**
 * The shared fixtures and corpora sit next to the repository (`../shared`); a path written as `/work/shared/…`
 * works only on the machine it was written on and breaks a fresh clone anywhere else.
 */
describe('no absolute machine paths in code', () => {
  it('src, test, scripts and bench resolve ../shared relative to the repository, never /work/…', () => {
    const offenders = ['src', 'test', 'scripts', 'bench']
      .flatMap((folder) => sourceFiles(join(root, folder)))
      .filter((path) => !path.endsWith('no-machine-paths.test.ts'))
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .map((line, index) => ({ line, at: `${relative(root, path)}:${index + 1}` }))
          .filter(({ line }) => /['"`[(]\/work\//.test(line))
          .map(({ at }) => at),
      );
    expect(offenders).toEqual([]);
  });
});
