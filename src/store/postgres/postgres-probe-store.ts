import type pg from 'pg';
import type { ProbeResultsFeed, ProbeStore } from '../../catalog/metadata/probe-store.js';
import { probeResultSchema } from '../../catalog/metadata/probe-results.js';
import type { ProbeFile, ProbeResult } from '../../catalog/metadata/probe-results.js';
import type { ChangeAnnouncements } from '../change-announcements.js';
import type { StateLogger } from '../redis/redis-health.js';
import { silentStateLogger } from '../redis/redis-health.js';
import { applyPostgresMigrations } from './postgres-migrations.js';
import type { PostgresMigration } from './postgres-migrations.js';
import { type PostgresConnectionOptions, createPostgresPool, defaultPostgresSchema } from './postgres-pool.js';

const probeMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'model probe results',
    sql: `
      CREATE TABLE model_probes (
        model TEXT PRIMARY KEY,
        result JSONB NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
  },
];

interface ProbeRow {
  model: string;
  result: unknown;
}

export interface PostgresProbeStoreOptions extends PostgresConnectionOptions {
  pool?: pg.Pool;
  /** Announces this store's writes ("re-read", no data) and hears the others'; without it only the resync brings them. */
  changes?: ChangeAnnouncements;
  /** How often the copy is re-read from Postgres in case an announcement was missed. */
  resyncIntervalMs?: number;
  logger?: StateLogger;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Probe results shared by every instance of a cluster: one JSONB row per `provider/model`. A `models probe` run
 * merges into it and announces; each instance keeps a copy in memory (the catalog's reads are synchronous),
 * re-reads it on announcements and every `resyncIntervalMs`, and tells its listeners when it changed.
 *
 * Postgres unreachable: a merge rejects (nothing was stored, the CLI says so); an instance keeps its last copy,
 * or, if it never read one, routes on bundled data and name patterns until a resync succeeds.
 */
export class PostgresProbeStore implements ProbeStore, ProbeResultsFeed {
  readonly version = 1;
  readonly location: string;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #schema: string;
  readonly #options: PostgresProbeStoreOptions;
  readonly #logger: StateLogger;
  readonly #listeners = new Set<(probes: ProbeFile) => void>();
  #copy: ProbeFile = { version: 1, probes: {} };
  #copyText = JSON.stringify(this.#copy);
  /** Bumped by every local write, so a reload that read before the write cannot undo it. */
  #writes = 0;
  #reloadsStarted = 0;
  #reloadApplied = 0;
  #ready: Promise<number> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #resyncFailing = false;
  #closed = false;

  constructor(options: PostgresProbeStoreOptions) {
    this.#options = options;
    this.#schema = options.schema ?? defaultPostgresSchema;
    this.#ownsPool = options.pool === undefined;
    this.#pool = options.pool ?? createPostgresPool(options);
    this.#logger = options.logger ?? silentStateLogger;
    this.location = `postgres ${this.#schema}.model_probes`;
  }

  /** Applies the probe table's migrations once (again after a failure). */
  ready(): Promise<number> {
    this.#ready ??= applyPostgresMigrations(this.#pool, this.#schema, 'probes', probeMigrations).catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /**
   * Starts following other instances' writes (announcements and the periodic resync), then reads the results.
   * Rejects when that first read fails; the resync keeps trying either way.
   */
  async start(): Promise<void> {
    this.#unsubscribe ??= this.#options.changes?.subscribe(() => void this.#resync('announcement'));
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.#resync('resync'), this.#options.resyncIntervalMs ?? 5_000);
      this.#timer.unref();
    }
    await this.reload();
  }

  current(): ProbeFile {
    return this.#copy;
  }

  onChange(listener: (probes: ProbeFile) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async read(): Promise<ProbeFile> {
    await this.reload();
    return this.#copy;
  }

  /** Replaces the copy with what Postgres holds now; listeners hear of it only when something changed. */
  async reload(): Promise<void> {
    await this.ready();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const ticket = (this.#reloadsStarted += 1);
      const writes = this.#writes;
      const { rows } = await this.#pool.query<ProbeRow>('SELECT model, result FROM model_probes ORDER BY model');
      // A local write landed while reading: what was read may predate it, so read again.
      if (writes !== this.#writes) continue;
      // An older reload finishing after a newer one would bring back a stale copy.
      if (ticket < this.#reloadApplied) return;
      this.#reloadApplied = ticket;
      const probes: ProbeFile['probes'] = {};
      for (const row of rows) {
        // A row this version cannot read is left out: probing is an optimisation, the model stays usable.
        const parsed = probeResultSchema.safeParse(row.result);
        if (parsed.success) probes[row.model] = parsed.data;
      }
      this.#replace({ version: 1, probes });
      return;
    }
  }

  async merge(qualifiedName: string, result: ProbeResult): Promise<ProbeResult> {
    const valid = probeResultSchema.parse(result);
    let stored: unknown;
    try {
      await this.ready();
      // `||` merges the top-level fields: a capability this run could not judge keeps the earlier verdict.
      const written = await this.#pool.query<{ result: unknown }>(
        `INSERT INTO model_probes (model, result) VALUES ($1, $2::jsonb)
         ON CONFLICT (model) DO UPDATE SET result = model_probes.result || excluded.result, updated_at = now()
         RETURNING result`,
        [qualifiedName, JSON.stringify(valid)],
      );
      stored = written.rows[0]?.result;
    } catch (error) {
      throw new Error(
        `Could not store the probe result of ${qualifiedName}: the cluster's probe store (Postgres) is unreachable (${errorText(error)}), so nothing was saved.`,
        { cause: error },
      );
    }
    const merged = probeResultSchema.parse(stored);
    this.#writes += 1;
    this.#replace({ version: 1, probes: { ...this.#copy.probes, [qualifiedName]: merged } });
    this.#options.changes?.announce().catch((error: unknown) => {
      this.#logger.warn({ error: errorText(error) }, 'could not announce new probe results; other instances see them at their next resync');
    });
    return merged;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#listeners.clear();
    if (this.#ownsPool) await this.#pool.end();
  }

  #replace(unordered: ProbeFile): void {
    // In model order, as the reload reads them, so the same results always compare equal.
    const probes: ProbeFile = { version: 1, probes: Object.fromEntries(Object.entries(unordered.probes).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))) };
    const text = JSON.stringify(probes);
    if (text === this.#copyText) return;
    this.#copy = probes;
    this.#copyText = text;
    for (const listener of this.#listeners) listener(probes);
  }

  async #resync(reason: string): Promise<void> {
    try {
      await this.reload();
      if (this.#resyncFailing) this.#logger.info({ reason }, 'probe results re-read from Postgres again');
      this.#resyncFailing = false;
    } catch (error) {
      // Once per outage, not once per resync.
      if (!this.#resyncFailing) {
        this.#logger.warn({ reason, error: errorText(error) }, 'could not re-read probe results from Postgres; using the last copy');
      }
      this.#resyncFailing = true;
    }
  }
}
