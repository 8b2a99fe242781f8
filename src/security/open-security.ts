import type { Config } from '../config/schema.js';
import type { RequestRecord } from '../core/ledger-record.js';
import { GatewaySecurity } from './gateway-security.js';
import { recordCostFunction } from './record-cost.js';

export class StartupRefused extends Error {
  override readonly name = 'StartupRefused';
}

export interface OpenedSecurity {
  security: GatewaySecurity;
  /** Feeds per-key daily token and cost totals; add it to the gateway's observers. */
  observer: { requestStarted(): void; requestFinished(record: RequestRecord): void };
  /** Set only on the start that generated the admin key: the one time it exists in clear. Show it once. */
  generatedAdminKey?: string;
}

/**
 * Builds the gateway's security before it listens. Throws StartupRefused when the bind is not loopback and no
 * admin key exists. With `generateAdminKey`, a loopback start with no admin key anywhere creates one.
 */
export function openSecurity(options: { config: Config; dataDir: string; env: NodeJS.ProcessEnv; generateAdminKey?: boolean }): OpenedSecurity {
  const security = new GatewaySecurity({
    config: options.config.auth,
    bindHost: options.config.server.host,
    dataDir: options.dataDir,
    env: options.env,
    costOf: recordCostFunction(options.config),
  });
  const refusal = security.startupRefusal(options.config.server.host);
  if (refusal) throw new StartupRefused(refusal);
  const generatedAdminKey = options.generateAdminKey && security.adminKey.source === 'none' ? security.adminKey.generate() : undefined;
  const observer: OpenedSecurity['observer'] = {
    requestStarted() {},
    requestFinished(record) {
      security.recordUsage(record);
    },
  };
  return { security, observer, ...(generatedAdminKey ? { generatedAdminKey } : {}) };
}
