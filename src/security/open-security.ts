import type { Config } from '../config/schema.js';
import type { RequestRecord } from '../core/ledger-record.js';
import type { CounterStore } from '../store/counter-store.js';
import type { DashboardSessionStore } from '../store/dashboard-session-store.js';
import { GatewaySecurity } from './gateway-security.js';
import type { LimiterLogger } from './key-limiter.js';
import type { KeyStore } from '../store/keys/key-store.js';
import { recordCostFunction } from './record-cost.js';
import { writeAdminKeyFile } from './admin-key-file.js';

export class StartupRefused extends Error {
  override readonly name = 'StartupRefused';
}

export interface OpenedSecurity {
  security: GatewaySecurity;
  /** Feeds per-key daily token and cost totals; add it to the gateway's observers. */
  observer: { requestStarted(): void; requestFinished(record: RequestRecord): void };
  /** Set only on the start that generated the admin key: the one time it exists in clear. Show it once. */
  generatedAdminKey?: string;
  /** Where the generated key was saved for the owner's CLI (mode 0600). */
  adminKeyFile?: string;
}

export interface OpenSecurityOptions {
  config: Config;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  generateAdminKey?: boolean;
  /** Where keys live; the key file in the data directory when absent (Postgres in a cluster). */
  store?: KeyStore;
  /** Where per-key limits count; memory when absent (Redis in a cluster). */
  counters?: CounterStore;
  /** Where dashboard logins live; memory when absent (Redis in a cluster). */
  dashboardSessions?: DashboardSessionStore;
  logger?: LimiterLogger;
}

/**
 * Builds the gateway's security before it listens. Rejects with StartupRefused when the bind is not loopback and
 * no admin key exists. With `generateAdminKey`, a loopback start with no admin key anywhere creates one.
 */
export async function openSecurity(options: OpenSecurityOptions): Promise<OpenedSecurity> {
  const security = new GatewaySecurity({
    config: options.config.auth,
    bindHost: options.config.server.host,
    dataDir: options.dataDir,
    env: options.env,
    costOf: recordCostFunction(options.config),
    ...(options.store ? { store: options.store } : {}),
    ...(options.counters ? { counters: options.counters } : {}),
    ...(options.dashboardSessions ? { dashboardSessions: options.dashboardSessions } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const refusal = security.startupRefusal(options.config.server.host);
  if (refusal) throw new StartupRefused(refusal);
  const generatedAdminKey = options.generateAdminKey && security.adminKey.source === 'none' ? await security.adminKey.generate() : undefined;
  // Saved for the CLI on this machine (owner-only), so `router`, `models` and `keys` need no copied key.
  const adminKeyFile = generatedAdminKey === undefined ? undefined : writeAdminKeyFile(options.dataDir, generatedAdminKey);
  const observer: OpenedSecurity['observer'] = {
    requestStarted() {},
    requestFinished(record) {
      void security.recordUsage(record);
    },
  };
  return { security, observer, ...(generatedAdminKey ? { generatedAdminKey } : {}), ...(adminKeyFile ? { adminKeyFile } : {}) };
}
