// What the gateway records per request in the benchmark: nothing yet (the ledger plugs in here once wired).
import type { Config } from '../../src/config/schema.js';
import type { RequestObserver } from '../../src/server/request-observer.js';

export async function createBenchObservers(_config: Config, _dataDir: string): Promise<{ observers: RequestObserver[]; close: () => Promise<void> }> {
  return { observers: [], close: async () => undefined };
}
