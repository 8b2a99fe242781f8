import type { IncomingMessage } from 'node:http';
import type { ApplicationKey } from '../store/keys/key-record.js';

/** Who sent a request, as the auth step decided. */
export type Principal =
  | { kind: 'admin'; via: 'key' | 'session' }
  | { kind: 'application'; key: ApplicationKey }
  | { kind: 'anonymous' };

const principals = new WeakMap<IncomingMessage, Principal>();

export function setPrincipal(request: IncomingMessage, principal: Principal): void {
  principals.set(request, principal);
}

/** Undefined when no auth step ran for this request (a server built without security). */
export function principalOf(request: IncomingMessage): Principal | undefined {
  return principals.get(request);
}

/** The id the ledger stores for the caller: an application key's id, `admin`, or nothing. */
export function clientKeyIdOf(request: IncomingMessage): string | undefined {
  return clientKeyIdOfPrincipal(principals.get(request));
}

/** The same for a principal the caller already holds (the request pipeline has no HTTP request). */
export function clientKeyIdOfPrincipal(principal: Principal | undefined): string | undefined {
  if (principal?.kind === 'application') return principal.key.id;
  if (principal?.kind === 'admin') return 'admin';
  return undefined;
}
