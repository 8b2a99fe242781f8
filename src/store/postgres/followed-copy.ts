import type pg from 'pg';
import type { ChangeAnnouncements } from '../change-announcements.js';
import type { StateLogger } from '../redis/redis-health.js';
import { applyPostgresMigrations } from './postgres-migrations.js';
import type { PostgresMigration } from './postgres-migrations.js';

export interface FollowedCopyOptions<Snapshot> {
  pool: pg.Pool;
  schema: string;
  /** The migrations' component name and list. */
  component: string;
  migrations: readonly PostgresMigration[];
  /** For log lines: `application keys`, `probe results`. */
  what: string;
  /** Announces this instance's writes and hears the others'; without it only the resync brings them. */
  changes?: ChangeAnnouncements;
  resyncIntervalMs?: number;
  logger: StateLogger;
  /** Reads everything the copy holds from Postgres. */
  read(pool: pg.Pool): Promise<Snapshot>;
  /** Replaces the copy with what was read. */
  apply(snapshot: Snapshot): void;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The part every in-memory copy of a shared Postgres table has in common (application keys, probe results):
 * migrations applied once, a re-read on every announcement and every `resyncIntervalMs`, writes announced, and
 * the two races a copy must survive — a re-read that started before a local write must not undo it, and an
 * older re-read finishing after a newer one must not bring back a stale copy.
 */
export class FollowedCopy<Snapshot> {
  readonly #options: FollowedCopyOptions<Snapshot>;
  /** Bumped by every local write, so a reload that read before the write cannot undo it. */
  #writes = 0;
  #reloadsStarted = 0;
  #reloadApplied = 0;
  #ready: Promise<number> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #resyncFailing = false;

  constructor(options: FollowedCopyOptions<Snapshot>) {
    this.#options = options;
  }

  /** Applies the table's migrations once (again after a failure). */
  ready(): Promise<number> {
    const { pool, schema, component, migrations } = this.#options;
    this.#ready ??= applyPostgresMigrations(pool, schema, component, migrations).catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /**
   * Starts following other instances' changes (announcements and the periodic resync), then reads the copy.
   * Rejects when that first read fails; the resync keeps trying either way.
   */
  async start(): Promise<void> {
    this.#unsubscribe ??= this.#options.changes?.subscribe(() => void this.resync('announcement'));
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.resync('resync'), this.#options.resyncIntervalMs ?? 5_000);
      this.#timer.unref();
    }
    await this.reload();
  }

  /** Whether the copy was read from Postgres at least once (before that it is empty, not known to be empty). */
  get loaded(): boolean {
    return this.#reloadApplied > 0;
  }

  /** Replaces the copy with what Postgres holds now. */
  async reload(): Promise<void> {
    await this.ready();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const ticket = (this.#reloadsStarted += 1);
      const writes = this.#writes;
      const snapshot = await this.#options.read(this.#options.pool);
      // A local write landed while reading: what was read may predate it, so read again.
      if (writes !== this.#writes) continue;
      // An older reload finishing after a newer one would bring back a stale copy.
      if (ticket < this.#reloadApplied) return;
      this.#reloadApplied = ticket;
      this.#options.apply(snapshot);
      return;
    }
  }

  /** After a write Postgres took (and the copy shows): guards reloads in flight and tells the other instances. */
  wrote(): void {
    this.#writes += 1;
    this.#options.changes?.announce().catch((error: unknown) => {
      this.#options.logger.warn(
        { error: errorText(error) },
        `could not announce a change to the ${this.#options.what}; other instances see it at their next resync`,
      );
    });
  }

  /** A reload that never throws: an outage is logged once, and the last copy stays in use. */
  async resync(reason: string): Promise<void> {
    try {
      await this.reload();
      if (this.#resyncFailing) this.#options.logger.info({ reason }, `${this.#options.what} re-read from Postgres again`);
      this.#resyncFailing = false;
    } catch (error) {
      if (!this.#resyncFailing) {
        this.#options.logger.warn({ reason, error: errorText(error) }, `could not re-read the ${this.#options.what} from Postgres; using the last copy`);
      }
      this.#resyncFailing = true;
    }
  }

  /** Stops following; the pool belongs to the store. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
