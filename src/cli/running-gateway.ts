import type { Config } from '../config/schema.js';

/** The running gateway's base URL: `--url`, else the configured address (a wildcard bind is reached on loopback). */
export function gatewayUrl(server: Config['server'], flag: unknown): string {
  if (typeof flag === 'string') return flag.replace(/\/+$/, '');
  const host = server.host === '0.0.0.0' || server.host === '::' ? '127.0.0.1' : server.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
}

/** Whether a gateway answers at `url` (any HTTP answer counts; a refused connection does not). */
export async function gatewayRunning(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_500) });
    return true;
  } catch {
    return false;
  }
}
