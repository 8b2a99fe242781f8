import { isIP } from 'node:net';

/** Whether a bind address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === 'localhost') return true;
  if (bare === '::1') return true;
  const mapped = bare.toLowerCase().startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(mapped) === 4 && mapped.startsWith('127.');
}
