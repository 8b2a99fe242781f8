import type { ProviderConfig } from '../config/schema.js';
import { configuredKeys } from '../providers/configured-keys.js';

export interface PooledKey {
  /** Safe to log and store: provider id and position, never the key. */
  id: string;
  value: string | undefined;
  /** The key's last four characters (`…ab12`), or `none` for a keyless slot: what logs and metrics name it by. */
  hint: string;
}

/**
 * A provider's API keys. Several keys rotate (round-robin, or sequential: always the first usable one); rests
 * (cooldowns per key+model, authentication rests in `key-auth-rests.ts`) are kept by the caller.
 */
export class KeyPool {
  readonly keys: PooledKey[];
  private next = 0;

  constructor(
    readonly providerId: string,
    private readonly rotation: 'round-robin' | 'sequential',
    values: (string | undefined)[],
  ) {
    this.keys = values.map((value, index) => ({ id: `${providerId}#${index + 1}`, value, hint: value === undefined ? 'none' : `…${value.slice(-4)}` }));
  }

  static fromConfig(provider: ProviderConfig, env: NodeJS.ProcessEnv): KeyPool {
    const values = configuredKeys(provider, env);
    // Local servers (Ollama, vLLM) need no key: one keyless slot keeps the loop uniform.
    return new KeyPool(provider.id, provider.key_rotation, values.length > 0 ? values : [undefined]);
  }

  /** Keys in the order to try them for the next attempt, skipping those `isResting` rejects. */
  order(isResting: (key: PooledKey) => boolean): PooledKey[] {
    const usable = this.keys;
    if (usable.length === 0) return [];
    let ordered = usable;
    if (this.rotation === 'round-robin') {
      const start = this.next % usable.length;
      this.next = (this.next + 1) % Number.MAX_SAFE_INTEGER;
      ordered = [...usable.slice(start), ...usable.slice(0, start)];
    }
    return ordered.filter((key) => !isResting(key));
  }
}
