import { randomBytes } from 'node:crypto';
import type { ApplicationKey, KeyLimits } from '../store/keys/key-record.js';
import type { KeyStore } from '../store/keys/key-store.js';
import type { Scope } from '../store/keys/scopes.js';
import { generateSecret, hashSecret, secretHint } from './secret-hash.js';

export const applicationKeyPrefix = 'hrk_';
export const adminKeyPrefix = 'hra_';

export interface NewKeyRequest {
  name: string;
  scopes: readonly Scope[];
  limits: KeyLimits;
}

/**
 * Creates and stores an application key; the returned `secret` is the only time the key exists in clear.
 * Rejects when the store could not keep it (nothing is stored then).
 */
export async function createApplicationKey(
  store: KeyStore,
  request: NewKeyRequest,
  now = new Date(),
): Promise<{ key: ApplicationKey; secret: string }> {
  const id = randomBytes(5).toString('hex');
  // The id is part of the key so a lookup finds one record, then compares one hash in constant time.
  const secret = generateSecret(`${applicationKeyPrefix}${id}_`);
  const key: ApplicationKey = {
    id,
    name: request.name,
    hash: hashSecret(secret),
    hint: secretHint(secret),
    scopes: [...new Set(request.scopes)],
    limits: request.limits,
    created_at: now.toISOString(),
  };
  await store.add(key);
  return { key, secret };
}

/** The id inside an application key, or undefined when the string is not shaped like one. */
export function applicationKeyId(presented: string): string | undefined {
  const match = /^hrk_([a-f0-9]{10})_[A-Za-z0-9_-]{20,}$/.exec(presented);
  return match?.[1];
}
