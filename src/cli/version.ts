import { readFileSync } from 'node:fs';

/**
 * The installed package's version, from its package.json: `src/cli/` under tsx and `dist/cli/` once built are
 * both two levels below the package root, so one relative path serves both.
 */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const version = (JSON.parse(text) as { version?: unknown }).version;
  return typeof version === 'string' ? version : 'unknown';
}
