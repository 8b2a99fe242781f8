import { adminKeyVariable } from '../security/admin-key.js';
import { adminKeyFilePath, readAdminKeyFile } from '../security/admin-key-file.js';

export type AdminCredential = { key: string; from: 'env' | 'file' } | { key?: undefined; advice: string };

/**
 * The admin key for talking to a running gateway: HERMES_ROUTER_ADMIN_KEY, else the owner-only key file the
 * gateway saved in its data directory when it generated the key. Another machine has no such file and needs the
 * variable; the advice says so.
 */
export function adminCredential(env: NodeJS.ProcessEnv, dataDir: string): AdminCredential {
  const fromEnvironment = env[adminKeyVariable];
  if (fromEnvironment) return { key: fromEnvironment, from: 'env' };
  const saved = readAdminKeyFile(dataDir);
  if (saved.key) return { key: saved.key, from: 'file' };
  return {
    advice:
      `set ${adminKeyVariable} to the gateway's admin key` +
      (saved.problem ? ` (${saved.problem})` : ` (on the gateway's machine it is read from ${adminKeyFilePath(dataDir)} when that exists; "hermes-router keys admin-reset" writes a new one)`),
  };
}
