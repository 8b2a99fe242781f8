import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The page's files, by name; only these are ever served (no path from the URL reaches the file system). */
export const dashboardFiles = ['index.html', 'app.js', 'charts.js', 'app.css'] as const;

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/**
 * The top-level `dashboard/` folder of the package, found by walking up from this module, so the same code
 * serves it from `src/` (tsx, tests) and from `dist/` (the built package; tsc does not copy it).
 */
export function findDashboardDirectory(start = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let directory = start;
  for (;;) {
    const candidate = join(directory, 'dashboard');
    if (existsSync(join(candidate, 'index.html')) && existsSync(join(directory, 'package.json'))) return candidate;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** Reads the files once: they are small and change only with a new release. */
export function loadDashboardFiles(directory: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of dashboardFiles) {
    const extension = name.slice(name.lastIndexOf('.'));
    files.set(name, { body: readFileSync(join(directory, name)), contentType: contentTypes[extension] ?? 'application/octet-stream' });
  }
  return files;
}
