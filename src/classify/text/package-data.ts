import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of a file shipped under the package's `data/` folder. Walks up from this module to the
 * folder that holds package.json, so the same code works from `src/` under tsx and from the compiled `dist/`.
 */
export function packageDataPath(relativePath: string): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, relativePath);
    if (existsSync(join(directory, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`hermes-router: shipped data file ${relativePath} was not found above ${fileURLToPath(import.meta.url)}`);
    directory = parent;
  }
}

/** Reads a JSON file shipped under the package's `data/` folder. */
export function readPackageJson<T>(relativePath: string): T {
  return JSON.parse(readFileSync(packageDataPath(relativePath), 'utf8')) as T;
}
