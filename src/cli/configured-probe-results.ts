import type { ProbeFile } from '../store/probes/probe-results.js';
import { openConfiguredProbeStore } from '../pipeline/stores/open-probe-store.js';
import type { CommandContext } from './command.js';
import type { ModelsCommandSetup } from './models-setup.js';

/**
 * The probe results the gateway would use, for the `models` commands that read them: the data directory's
 * file, or the cluster's Postgres table. Postgres unreachable is a note, not a failure: the listing is still
 * right about everything else, as the gateway itself would be.
 */
export async function readConfiguredProbeResults(setup: ModelsCommandSetup, context: CommandContext): Promise<ProbeFile> {
  try {
    const opened = await openConfiguredProbeStore({ storage: setup.config.storage, dataDir: setup.dataDir, env: context.env });
    try {
      return await opened.store.read();
    } finally {
      await opened.close();
    }
  } catch (error) {
    context.stderr.write(`${error instanceof Error ? error.message : String(error)}; showing capabilities without probe results.\n`);
    return { version: 1, probes: {} };
  }
}
