import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The admin key in clear, for the CLI on the gateway's own machine; readable by the owner only. */
export function adminKeyFilePath(dataDir: string): string {
  return join(dataDir, 'admin-key');
}

/**
 * Saves a generated admin key where the owner's CLI finds it, so `router`, `models` and `keys` work on this
 * machine without copying the key by hand. Mode 0600 from the first byte (written to a private temporary file,
 * then renamed): the same trust as the owner's files, and no other user can read it.
 */
export function writeAdminKeyFile(dataDir: string, secret: string): string {
  const path = adminKeyFilePath(dataDir);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${secret}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
  return path;
}

/**
 * The saved admin key, or undefined when there is none or it is not the owner's alone: a key file others can
 * read is refused (as ssh refuses a loose private key) rather than trusted.
 */
export function readAdminKeyFile(dataDir: string): { key?: string; problem?: string } {
  const path = adminKeyFilePath(dataDir);
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return {};
  }
  if ((mode & 0o077) !== 0) return { problem: `${path} is readable by other users (chmod 600 ${path}); not used` };
  const key = readFileSync(path, 'utf8').trim();
  return key ? { key } : {};
}
