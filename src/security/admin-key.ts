import type { KeyStore } from '../store/keys/key-store.js';
import { adminKeyPrefix } from './create-key.js';
import { rememberSecrets } from '../core/known-secrets.js';
import { generateSecret, hashSecret, secretMatches } from './secret-hash.js';

export const adminKeyVariable = 'HERMES_ROUTER_ADMIN_KEY';

/** Where the admin key comes from: the environment wins; else a hash stored by an earlier start or `keys admin-reset`. */
export type AdminKeySource = 'env' | 'stored' | 'none';

/**
 * Checks presented admin keys. The environment's key is compared by digest and never written anywhere; a
 * stored key is re-read from the store on each check, so `hermes-router keys admin-reset` applies at once.
 */
export class AdminKey {
  private readonly environmentHash: string | undefined;

  constructor(
    private readonly store: KeyStore,
    env: NodeJS.ProcessEnv,
  ) {
    const fromEnvironment = env[adminKeyVariable];
    this.environmentHash = fromEnvironment ? hashSecret(fromEnvironment) : undefined;
    rememberSecrets([fromEnvironment]);
  }

  get source(): AdminKeySource {
    if (this.environmentHash) return 'env';
    return this.store.adminHash() ? 'stored' : 'none';
  }

  matches(presented: string): boolean {
    const hash = this.environmentHash ?? this.store.adminHash();
    return hash !== undefined && secretMatches(presented, hash);
  }

  /**
   * Generates, stores (hashed) and returns a new admin key, replacing any stored one. The caller shows it once.
   * An admin key from the environment still wins over it while set.
   */
  async generate(): Promise<string> {
    const secret = generateSecret(adminKeyPrefix);
    await this.store.setAdminHash(hashSecret(secret));
    return secret;
  }
}
