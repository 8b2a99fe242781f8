import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import { textLogDestination } from './text-log-destination.js';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { ensureDataDir } from '../config/data-dir.js';
import { Gateway } from '../pipeline/gateway.js';
import { expandAutoModels } from '../pipeline/auto-models.js';
import { createGatewayServer } from './http-server.js';
import type { ExtraRoute } from './http-server.js';
import type { RequestObserver } from '../pipeline/request-observer.js';
import type { GatewayStores } from '../pipeline/stores/gateway-stores.js';
import { attachSecurity } from '../security/gateway-security.js';
import type { GatewaySecurity } from '../security/gateway-security.js';
import { openSecurity } from '../security/open-security.js';
import { recordCostFunction } from '../security/record-cost.js';
import { withSecretRedaction } from '../security/redacting-logger.js';

export interface StartGatewayOptions {
  config: Config;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  observers?: RequestObserver[];
  /** Shared state for several instances (`openClusterStores`); in-process defaults when absent. */
  stores?: GatewayStores;
  extraRoutes?: ExtraRoute[];
  /** Re-reads the config for SIGHUP and `POST /v1/config/reload` (the CLI's start passes the file it loaded). */
  configSource?: () => Config;
  /** Called during shutdown after the server stopped taking requests (e.g. flush the ledger). */
  onShutdown?: () => Promise<void>;
  /** On loopback with no admin key anywhere, generate one (the CLI's start shows it once). */
  generateAdminKey?: boolean;
  /** The clock of the key rests after a 401/403 (`GatewayOptions.authRestClock`), for tests. */
  authRestClock?: () => number;
}

export interface RunningGateway {
  gateway: Gateway;
  server: Server;
  /** e.g. http://127.0.0.1:8319 */
  url: string;
  /** Stops accepting, lets in-flight requests finish up to the grace period, then runs shutdown hooks. */
  close(): Promise<void>;
  /** Keys, limits, dashboard sessions (src/security/ARCHITECTURE.md). */
  security: GatewaySecurity;
  /** Only on the start that generated the admin key: print it once, it is stored hashed. */
  generatedAdminKey?: string;
  /** With `generatedAdminKey`: the owner-only file it was saved to for the CLI on this machine. */
  adminKeyFile?: string;
}

export type LogFormat = 'auto' | 'json' | 'text';

/**
 * The gateway's log on stderr: JSON lines for a log collector, or one readable line per event (`text`) for a
 * person; `auto` picks text when stderr is a terminal, JSON otherwise (a service manager, a pipe, a file).
 */
export function createLogger(level: string, format: LogFormat = 'auto', stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr): Logger {
  const options = { level, base: undefined, redact: ['*.api_key', '*.apiKey', '*.authorization', 'headers.authorization'] };
  const text = format === 'text' || (format === 'auto' && stream.isTTY === true);
  if (text) return pino(options, textLogDestination(stream));
  return pino(options, stream === process.stderr ? pino.destination(2) : stream);
}

/** Builds the gateway from a config and listens; the CLI and the tests both start it through here. */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  ensureDataDir(options.dataDir);
  const logger = withSecretRedaction(options.logger ?? createLogger(options.config.logging.level, options.config.logging.format));
  // Before listening: a non-loopback bind without an admin key refuses to start here.
  const opened = await openSecurity({
    config: options.config,
    dataDir: options.dataDir,
    env: options.env ?? process.env,
    generateAdminKey: options.generateAdminKey ?? false,
    ...(options.stores?.keys ? { store: options.stores.keys } : {}),
    ...(options.stores?.counters ? { counters: options.stores.counters } : {}),
    ...(options.stores?.dashboardSessions ? { dashboardSessions: options.stores.dashboardSessions } : {}),
    logger: logger.child({ component: 'key-limits' }),
  });
  const gateway = new Gateway({
    // `models: auto` providers serve what they list (read now, again on every reload).
    config: await expandAutoModels(options.config, { env: options.env ?? process.env, dataDir: options.dataDir, logger: logger.child({ component: 'auto-models' }) }),
    env: options.env ?? process.env,
    logger,
    dataDir: options.dataDir,
    observers: [...(options.observers ?? []), opened.observer],
    ...(options.stores ? { stores: options.stores } : {}),
    ...(options.configSource ? { configSource: options.configSource } : {}),
    ...(options.authRestClock ? { authRestClock: options.authRestClock } : {}),
  });
  attachSecurity(gateway, opened.security);
  // A reloaded config's prices apply to the keys' daily cost limits too, as they do to the ledger.
  gateway.onReload((config) => opened.security.reprice(recordCostFunction(config)));
  const server = createGatewayServer(gateway, options.extraRoutes ?? []);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.config.server.port, options.config.server.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets become idle as their in-flight responses end; close them as they do.
      server.closeIdleConnections();
      const sweeper = setInterval(() => server.closeIdleConnections(), 50);
      const grace = options.config.server.shutdown_grace_ms;
      const deadline = Date.now() + grace;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([stopped, new Promise<void>((resolve) => (timer = setTimeout(resolve, grace)))]);
      if (timer) clearTimeout(timer);
      clearInterval(sweeper);
      server.closeAllConnections();
      // A handler's bookkeeping runs after its client's last byte: wait for it (within the grace, plus a moment
      // for requests just cut off to record how they ended) before the ledger closes.
      await gateway.inFlight.whenIdle(Math.max(0, deadline - Date.now()) + 1_000);
      await options.onShutdown?.();
      await gateway.close();
    })();
    return closing;
  };
  const generated = {
    ...(opened.generatedAdminKey === undefined ? {} : { generatedAdminKey: opened.generatedAdminKey }),
    ...(opened.adminKeyFile === undefined ? {} : { adminKeyFile: opened.adminKeyFile }),
  };
  return { gateway, server, url: `http://${host}:${address.port}`, close, security: opened.security, ...generated };
}
