import type { ProbeStore } from './probe-store.js';
import { mergeProbeResult, readProbeResults, writeProbeResults } from './probe-results.js';
import type { ProbeFile, ProbeResult } from './probe-results.js';

/** `model-probes.json` in the data directory: one instance's probe cache, rewritten atomically on every merge. */
export class FileProbeStore implements ProbeStore {
  readonly version = 1;

  constructor(readonly location: string) {}

  async read(): Promise<ProbeFile> {
    return readProbeResults(this.location);
  }

  async merge(qualifiedName: string, result: ProbeResult): Promise<ProbeResult> {
    const results = readProbeResults(this.location);
    const merged = mergeProbeResult(results.probes[qualifiedName], result);
    results.probes[qualifiedName] = merged;
    writeProbeResults(this.location, results);
    return merged;
  }

  async close(): Promise<void> {}
}
