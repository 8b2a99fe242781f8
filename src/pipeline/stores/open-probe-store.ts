import { FileProbeStore } from '../../store/probes/file-probe-store.js';
import { probeFilePath } from '../../store/probes/probe-results.js';
import type { ProbeStore } from '../../store/probes/probe-store.js';
import type { StorageConfig } from '../../config/storage.js';
import { openClusterCopy } from '../../store/open-cluster-copy.js';
import { PostgresProbeStore } from '../../store/postgres/postgres-probe-store.js';

export interface ConfiguredProbeStore {
  store: ProbeStore;
  close(): Promise<void>;
}

/**
 * The probe store the config names, for the `models` commands: `model-probes.json` in the data directory, or in
 * a cluster the Postgres table every instance reads (read once here; rejects when Postgres is unreachable, so a
 * probe run never spends tokens on results no instance would see). Each result stored is announced on Redis so
 * running instances take it within milliseconds; with Redis away they take it at their next resync.
 */
export async function openConfiguredProbeStore(options: { storage: StorageConfig; dataDir: string; env?: NodeJS.ProcessEnv }): Promise<ConfiguredProbeStore> {
  const { storage } = options;
  if (storage.kind !== 'cluster') {
    return { store: new FileProbeStore(probeFilePath(options.dataDir)), close: async () => undefined };
  }
  return openClusterCopy({
    storage,
    env: options.env ?? {},
    channel: 'probes',
    what: 'probe store',
    create: (connection) => new PostgresProbeStore(connection),
  });
}
