import type pg from 'pg';
import type { ProbeResultsFeed, ProbeStore } from '../probes/probe-store.js';
import { probeResultSchema } from '../probes/probe-results.js';
import type { ProbeFile, ProbeResult } from '../probes/probe-results.js';
import type { ChangeAnnouncements } from '../change-announcements.js';
import type { StateLogger } from '../redis/redis-health.js';
import { silentStateLogger } from '../redis/redis-health.js';
import { FollowedCopy } from './followed-copy.js';
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
  readonly #follower: FollowedCopy<ProbeFile>;
  readonly #listeners = new Set<(probes: ProbeFile) => void>();
  #copy: ProbeFile = { version: 1, probes: {} };
  #copyText = JSON.stringify(this.#copy);
  #closed = false;

  constructor(options: PostgresProbeStoreOptions) {
    const schema = options.schema ?? defaultPostgresSchema;
    this.#ownsPool = options.pool === undefined;
    this.#pool = options.pool ?? createPostgresPool(options);
    this.location = `postgres ${schema}.model_probes`;
    this.#follower = new FollowedCopy({
      pool: this.#pool,
      schema,
      component: 'probes',
      migrations: probeMigrations,
      what: 'probe results',
      ...(options.changes ? { changes: options.changes } : {}),
      ...(options.resyncIntervalMs !== undefined ? { resyncIntervalMs: options.resyncIntervalMs } : {}),
      logger: options.logger ?? silentStateLogger,
      read: async (pool) => {
        const { rows } = await pool.query<ProbeRow>('SELECT model, result FROM model_probes ORDER BY model');
        const probes: ProbeFile['probes'] = {};
        for (const row of rows) {
          // A row this version cannot read is left out: probing is an optimisation, the model stays usable.
          const parsed = probeResultSchema.safeParse(row.result);
          if (parsed.success) probes[row.model] = parsed.data;
        }
        return { version: 1, probes };
      },
      apply: (probes) => this.#replace(probes),
    });
  }

  /** Applies the probe table's migrations once (again after a failure). */
  ready(): Promise<number> {
    return this.#follower.ready();
  }

  /**
   * Starts following other instances' writes (announcements and the periodic resync), then reads the results.
   * Rejects when that first read fails; the resync keeps trying either way.
   */
  start(): Promise<void> {
    return this.#follower.start();
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
  reload(): Promise<void> {
    return this.#follower.reload();
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
    this.#replace({ version: 1, probes: { ...this.#copy.probes, [qualifiedName]: merged } });
    this.#follower.wrote();
    return merged;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#follower.stop();
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
}
