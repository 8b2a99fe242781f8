import type { IncomingMessage } from 'node:http';

/** The host name of a `Host` header value (`[::1]:8319` → `::1`, `Localhost:80` → `localhost`). */
export function hostName(value: string): string {
  const trimmed = value.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']') === -1 ? undefined : trimmed.indexOf(']'));
  const colon = trimmed.lastIndexOf(':');
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/** The allowed names, remembering which ones the operator configured (`auth.allowed_hosts`). */
export class AllowedHostNames extends Set<string> {
  readonly configured = new Set<string>();
}

/** Host names a browser may use to reach a gateway bound to `bindHost`, plus configured extras. */
export function allowedHostNames(bindHost: string, extra: readonly string[] = []): AllowedHostNames {
  const names = new AllowedHostNames(['localhost', '127.0.0.1', '::1']);
  const bind = hostName(bindHost);
  if (bind !== '0.0.0.0' && bind !== '::') names.add(bind);
  for (const name of extra) {
    names.add(hostName(name));
    names.configured.add(hostName(name));
  }
  return names;
}

/** The port a URL or Host value names, with the scheme's default filled in (`''` never). */
function portOf(protocol: string, host: string): string | undefined {
  try {
    const url = new URL(`${protocol}//${host}`);
    return url.port || (protocol === 'https:' ? '443' : '80');
  } catch {
    return undefined;
  }
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
 * that carries one must come from a page served by an allowed host on the port the request went to. `Origin: null` (sandboxed frames, files) is
 * refused. Clients that are not browsers send no Origin and pass.
 */
export function originAllowed(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !allowed.has(hostName(url.host))) return false;
    // Another port on an allowed name is another site (a local dev server, another app on the machine): the
    // page must come from this gateway, so its port is the one the request was sent to. A name the operator
    // configured (a proxy in front) is trusted by name: the proxy's port is not the gateway's.
    const configured = allowed instanceof AllowedHostNames ? allowed.configured : new Set<string>();
    const host = request.headers.host;
    if (host === undefined || configured.has(hostName(url.host))) return true;
    return portOf(url.protocol, url.host) === portOf(url.protocol, host);
  } catch {
    return false;
  }
}
