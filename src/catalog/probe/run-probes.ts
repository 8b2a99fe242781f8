import type { Config } from '../../config/schema.js';
import { KeyPool } from '../../dispatch/key-pool.js';
import type { Provider } from '../../providers/provider.js';
import { createProvider } from '../../providers/registry.js';
import { ModelCatalog } from '../model-catalog.js';
import { probeFilePath, readProbeResults, writeProbeResults } from '../metadata/probe-results.js';
import type { ProbeResult } from '../metadata/probe-results.js';
import { probeDeployment } from './probe-deployment.js';

export interface ProbeReport {
  model: string;
  result: ProbeResult;
  notes: string[];
  calls: number;
}

export interface RunProbesOptions {
  config: Config;
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** Only these `provider/model` names (all chat models when empty). */
  only?: string[];
  /** Called before each model, for progress output. */
  onModel?: (qualifiedName: string, index: number, total: number) => void;
}

/**
 * Probes chat models for tool calling and vision and merges the results into `model-probes.json` (written
 * atomically after every model, so an interrupted run keeps what it learned). Embeddings models are skipped.
 */
export async function runProbes(options: RunProbesOptions): Promise<{ reports: ProbeReport[]; path: string }> {
  const catalog = new ModelCatalog(options.config);
  const selected = catalog
    .chatDeployments()
    .filter((deployment) => !options.only || options.only.length === 0 || options.only.includes(deployment.qualifiedName));
  const path = probeFilePath(options.dataDir);
  const results = readProbeResults(path);
  const providers = new Map<string, { provider: Provider; key: string | undefined }>();
  const reports: ProbeReport[] = [];
  try {
    for (const [index, deployment] of selected.entries()) {
      options.onModel?.(deployment.qualifiedName, index, selected.length);
      const providerIndex = options.config.providers.findIndex((provider) => provider.id === deployment.providerId);
      const providerConfig = options.config.providers[providerIndex];
      if (!providerConfig) continue;
      let entry = providers.get(providerConfig.id);
      if (!entry) {
        const timeouts = { ...options.config.timeouts, ...providerConfig.timeouts };
        entry = {
          provider: createProvider(providerConfig, timeouts.connect_ms, providerIndex),
          key: KeyPool.fromConfig(providerConfig, options.env).keys[0]?.value,
        };
        providers.set(providerConfig.id, entry);
      }
      const timeouts = { ...options.config.timeouts, ...providerConfig.timeouts };
      const outcome = await probeDeployment(entry.provider, deployment, entry.key, {
        connectMs: timeouts.connect_ms,
        firstByteMs: Math.min(timeouts.first_byte_ms, 60_000),
        idleMs: timeouts.idle_ms,
      });
      // A capability this run could not judge (rate limited, say) keeps what an earlier run learned.
      results.probes[deployment.qualifiedName] = { ...results.probes[deployment.qualifiedName], ...outcome.result };
      writeProbeResults(path, results);
      reports.push({ model: deployment.qualifiedName, ...outcome });
    }
  } finally {
    await Promise.allSettled([...providers.values()].map((entry) => entry.provider.close()));
  }
  return { reports, path };
}
