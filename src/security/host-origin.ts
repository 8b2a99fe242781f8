import type { IncomingMessage } from 'node:http';

/** The host name of a `Host` header value (`[::1]:8319` → `::1`, `Localhost:80` → `localhost`). */
export function hostName(value: string): string {
  const trimmed = value.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']') === -1 ? undefined : trimmed.indexOf(']'));
  const colon = trimmed.lastIndexOf(':');
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/** Host names a browser may use to reach a gateway bound to `bindHost`, plus configured extras. */
export function allowedHostNames(bindHost: string, extra: readonly string[] = []): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '::1']);
  const bind = hostName(bindHost);
  if (bind !== '0.0.0.0' && bind !== '::') names.add(bind);
  for (const name of extra) names.add(hostName(name));
  return names;
}

/**
 * Against DNS rebinding: a page on a hostile name that resolves to 127.0.0.1 reaches the gateway with its own
 * name in `Host`. A request without Host (HTTP/1.0 tools) is not a browser and passes.
 */
export function hostAllowed(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const host = request.headers.host;
  return host === undefined || allowed.has(hostName(host));
}

/**
 * Against cross-site requests: browsers send `Origin` on cross-origin and state-changing requests; a request
 * that carries one must come from a page served by an allowed host. `Origin: null` (sandboxed frames, files) is
 * refused. Clients that are not browsers send no Origin and pass.
 */
export function originAllowed(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && allowed.has(hostName(url.host));
  } catch {
    return false;
  }
}
