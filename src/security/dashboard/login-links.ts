import { randomBytes } from 'node:crypto';
import { hashSecret } from '../secret-hash.js';

export const loginLinkPath = '/auth/link';

/**
 * One-time dashboard login links, so the person at the gateway's console logs in by following a printed link
 * instead of pasting the admin key. A link works once, within `ttlMs`; only its hash is kept, in this instance's
 * memory (the instance that printed or issued it is the one that redeems it).
 */
export class DashboardLoginLinks {
  private readonly pending = new Map<string, number>();

  constructor(private readonly options: { ttlMs?: number; now?: () => number } = {}) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  get ttlMs(): number {
    return this.options.ttlMs ?? 15 * 60_000;
  }

  /** A new token for `${base}/auth/link?token=…`. */
  issue(): string {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    this.pending.set(hashSecret(token), this.now() + this.ttlMs);
    return token;
  }

  /** True once for a token issued here and not expired; the token is spent either way. */
  redeem(token: string): boolean {
    this.sweep();
    const hash = hashSecret(token);
    const expires = this.pending.get(hash);
    this.pending.delete(hash);
    return expires !== undefined && expires > this.now();
  }

  private sweep(): void {
    const now = this.now();
    for (const [hash, expires] of this.pending) if (expires <= now) this.pending.delete(hash);
  }
}
