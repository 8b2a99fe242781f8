import type { Config } from '../../config/schema.js';
import { configuredKeys } from '../../providers/configured-keys.js';
import type { Provider } from '../../providers/provider.js';
import { createProvider } from '../../providers/registry.js';
import { ModelCatalog } from '../model-catalog.js';
import type { ProbeResult } from '../../store/probes/probe-results.js';
import type { ProbeStore } from '../../store/probes/probe-store.js';
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
  /** Where results go: `model-probes.json`, or the cluster's Postgres table (`openConfiguredProbeStore`). */
  store: ProbeStore;
  /** Only these `provider/model` names (all chat models when empty). */
  only?: string[];
  /** Called before each model, for progress output. */
  onModel?: (qualifiedName: string, index: number, total: number) => void;
}

/**
 * Probes chat models for tool calling and vision and merges the results into the probe store after every
 * model, so an interrupted run keeps what it learned. Embeddings models are skipped. Rejects when the store
 * refuses a result (the cluster's Postgres went away): probing on would spend tokens on results nobody sees.
 */
export async function runProbes(options: RunProbesOptions): Promise<{ reports: ProbeReport[]; location: string }> {
  const catalog = new ModelCatalog(options.config);
  const selected = catalog
    .chatDeployments()
    .filter((deployment) => !options.only || options.only.length === 0 || options.only.includes(deployment.qualifiedName));
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
          key: configuredKeys(providerConfig, options.env)[0],
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
      await options.store.merge(deployment.qualifiedName, outcome.result);
      reports.push({ model: deployment.qualifiedName, ...outcome });
    }
  } finally {
    await Promise.allSettled([...providers.values()].map((entry) => entry.provider.close()));
  }
  return { reports, location: options.store.location };
}
