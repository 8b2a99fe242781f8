import type { PooledKey } from './key-pool.js';

/** What the log line and `/metrics` say when a key is rested for an authentication failure. */
export interface AuthRestEvent {
  providerId: string;
  keyId: string;
  /** The key's last four characters, e.g. `…ab12`: enough to tell keys apart, nothing to use. */
  keyHint: string;
  /** `key`: a 401, the key itself is refused (every model); `model`: a 403, this key may not use this model. */
  scope: 'key' | 'model';
  /** The model, for a `model` rest. */
  model?: string;
  status: number;
  /** The upstream's message (already redacted). */
  reason: string;
  restMs: number;
  /** How many times in a row this key (or key+model) failed authentication. */
  streak: number;
}

export interface AuthRestSettings {
  /** The first rest after an authentication failure; each further failure in a row doubles it. */
  firstRestMs: number;
  maxRestMs: number;
}

interface Rest {
  until: number;
  streak: number;
  event: AuthRestEvent;
}

/**
 * Keys resting after a 401/403. A 401 means the key itself is refused, so it rests for every model of its
 * provider; a 403 is often about one model's access ("you do not have access to model X"), so it rests the key
 * on that model only: a fallback on another model keeps the key. When the rest is over the next request tries
 * the key again (that request is the probe: if the key fails it fails over to the next key at once), and the
 * rest doubles while failures continue. A success ends the streak. `clear` lifts every rest (config reload: the
 * operator may have fixed the key).
 */
export class KeyAuthRests {
  readonly #rests = new Map<string, Rest>();

  constructor(
    private settings: AuthRestSettings,
    private readonly onRest: (event: AuthRestEvent) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  rest(providerId: string, key: PooledKey, model: string, status: number, reason: string): AuthRestEvent {
    const scope = status === 403 ? 'model' : 'key';
    const name = scope === 'key' ? key.id : `${key.id}|${model}`;
    const streak = (this.#rests.get(name)?.streak ?? 0) + 1;
    const restMs = Math.min(this.settings.maxRestMs, this.settings.firstRestMs * 2 ** Math.min(streak - 1, 30));
    const event: AuthRestEvent = {
      providerId,
      keyId: key.id,
      keyHint: key.hint,
      scope,
      ...(scope === 'model' ? { model } : {}),
      status,
      reason,
      restMs,
      streak,
    };
    this.#rests.set(name, { until: this.now() + restMs, streak, event });
    this.onRest(event);
    return event;
  }

  isResting(key: PooledKey, model: string): boolean {
    const now = this.now();
    return (this.#rests.get(key.id)?.until ?? 0) > now || (this.#rests.get(`${key.id}|${model}`)?.until ?? 0) > now;
  }

  /** The key worked on this model: its streaks end (a later failure starts from the first rest again). */
  succeeded(key: PooledKey, model: string): void {
    if (this.#rests.size === 0) return;
    this.#rests.delete(key.id);
    this.#rests.delete(`${key.id}|${model}`);
  }

  /** Rests in force now, for `/metrics`. */
  resting(): AuthRestEvent[] {
    const now = this.now();
    return [...this.#rests.values()].filter((rest) => rest.until > now).map((rest) => rest.event);
  }

  /** Ends every rest and applies new settings (config reload: the operator may have fixed the key). */
  clear(settings?: AuthRestSettings): void {
    this.#rests.clear();
    if (settings) this.settings = settings;
  }
}
