import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys the gateway generates carry 256 random bits, so one SHA-256 is enough to store them: there is nothing to
 * brute-force, and a slow hash would cost every request. A human-chosen admin key from the environment is never
 * stored at all.
 */
export function hashSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex')}`;
}

/** Compares digests, so neither the length nor the content of a secret leaks through timing. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'utf8');
  const actual = Buffer.from(hashSecret(presented), 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** `<prefix><43 url-safe characters>`. */
export function generateSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** What may be shown of a secret: its last four characters. */
export function secretHint(secret: string): string {
  return secret.length <= 8 ? '…' : `…${secret.slice(-4)}`;
}
