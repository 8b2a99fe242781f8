import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The data directory cannot be used; the message names it and what to do. */
export class DataDirError extends Error {}

const advice = 'choose another with --data-dir or HERMES_ROUTER_HOME';

/**
 * Creates the data directory (and missing parents) or throws a DataDirError a person can act on. Made one level at
 * a time from the nearest existing ancestor: Node's recursive mkdirSync never returns on some paths (`/proc/x`
 * loops on ENOENT), and a file in the way deserves its own sentence.
 */
export function ensureDataDir(path: string): void {
  const missing: string[] = [];
  let existing = path;
  for (;;) {
    let kind: 'directory' | 'other' | undefined;
    try {
      kind = statSync(existing).isDirectory() ? 'directory' : 'other';
    } catch {
      kind = undefined;
    }
    if (kind === 'other') {
      throw new DataDirError(
        existing === path ? `data directory ${path} is a file, not a directory; ${advice}` : `data directory ${path}: ${existing} is a file, not a directory; ${advice}`,
      );
    }
    if (kind === 'directory') break;
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(existing);
    existing = parent;
  }
  for (const directory of missing) {
    try {
      mkdirSync(directory);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new DataDirError(`cannot create data directory ${path} (${code} at ${directory}); ${advice}`);
    }
  }
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new DataDirError(`data directory ${path} is not writable by this user; ${advice}`);
  }
}
