import type pg from 'pg';
import { GatewayError } from '../../core/errors.js';
import { applicationKeySchema } from '../keys/key-record.js';
import type { ApplicationKey } from '../keys/key-record.js';
import type { KeyStore } from '../keys/key-store.js';
import type { ChangeAnnouncements } from '../change-announcements.js';
import type { StateLogger } from '../redis/redis-health.js';
import { silentStateLogger } from '../redis/redis-health.js';
import { FollowedCopy } from './followed-copy.js';
import type { PostgresMigration } from './postgres-migrations.js';
import { type PostgresConnectionOptions, createPostgresPool, defaultPostgresSchema } from './postgres-pool.js';

const keyMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'application keys and the admin key hash',
    sql: `
      CREATE TABLE application_keys (
        position BIGSERIAL UNIQUE,
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        hash TEXT NOT NULL,
        hint TEXT NOT NULL,
        scopes JSONB NOT NULL,
        limits JSONB NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        revoked_at TIMESTAMPTZ
      );
      CREATE TABLE admin_key (
        singleton BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
        hash TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
  },
];

interface KeyRow {
  id: string;
  name: string;
  hash: string;
  hint: string;
  scopes: unknown;
  limits: unknown;
  created_at: Date;
  revoked_at: Date | null;
}

export interface PostgresKeyStoreOptions extends PostgresConnectionOptions {
  pool?: pg.Pool;
  /** Announces this instance's writes and hears the others'; without it only the resync brings them. */
  changes?: ChangeAnnouncements;
  /** How often the copy is re-read from Postgres in case an announcement was missed. */
  resyncIntervalMs?: number;
  logger?: StateLogger;
}

function rowToKey(row: KeyRow): ApplicationKey {
  const parsed = applicationKeySchema.safeParse({
    id: row.id,
    name: row.name,
    hash: row.hash,
    hint: row.hint,
    scopes: row.scopes,
    limits: row.limits,
    created_at: row.created_at.toISOString(),
    ...(row.revoked_at === null ? {} : { revoked_at: row.revoked_at.toISOString() }),
  });
  // A row this version cannot read must not be skipped silently (a revoked key would be forgotten, not refused).
  if (!parsed.success) throw new Error(`application key ${row.id} in Postgres is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/**
 * Application keys shared by every instance of a cluster. Requests read an in-memory copy (the `KeyStore`
 * reads are synchronous); writes go to Postgres first and change the copy only once Postgres took them, then
 * are announced so the other instances re-read within milliseconds, with a periodic resync behind that.
 *
 * Postgres unreachable: writes reject with a 503 `GatewayError` (a key that exists on one instance only would
 * work or not depending on the load balancer), and requests keep using the last copy read — revocations made
 * during the outage could not be made either, so that copy is still the truth. An instance that could not read
 * Postgres at start knows no keys until it can: `readable()` is false, and the gateway refuses every request
 * that is not the admin's meanwhile (fails closed, `GatewaySecurity.keysReadable`).
 */
export class PostgresKeyStore implements KeyStore {
  readonly version = 2;
  readonly location: string;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #copy: FollowedCopy<{ keys: Map<string, ApplicationKey>; admin: string | undefined }>;
  #keys = new Map<string, ApplicationKey>();
  #admin: string | undefined;

  constructor(options: PostgresKeyStoreOptions) {
    const schema = options.schema ?? defaultPostgresSchema;
    this.#ownsPool = options.pool === undefined;
    this.#pool = options.pool ?? createPostgresPool(options);
    this.location = `postgres ${schema}.application_keys`;
    this.#copy = new FollowedCopy({
      pool: this.#pool,
      schema,
      component: 'keys',
      migrations: keyMigrations,
      what: 'application keys',
      ...(options.changes ? { changes: options.changes } : {}),
      ...(options.resyncIntervalMs !== undefined ? { resyncIntervalMs: options.resyncIntervalMs } : {}),
      logger: options.logger ?? silentStateLogger,
      read: async (pool) => {
        const [keys, admin] = await Promise.all([
          pool.query<KeyRow>('SELECT id, name, hash, hint, scopes, limits, created_at, revoked_at FROM application_keys ORDER BY position'),
          pool.query<{ hash: string }>('SELECT hash FROM admin_key WHERE singleton'),
        ]);
        return { keys: new Map(keys.rows.map((row) => [row.id, rowToKey(row)])), admin: admin.rows[0]?.hash };
      },
      apply: ({ keys, admin }) => {
        this.#keys = keys;
        this.#admin = admin;
      },
    });
  }

  /** Applies the key tables' migrations once (again after a failure). */
  ready(): Promise<number> {
    return this.#copy.ready();
  }

  /**
   * Starts following other instances' changes (announcements and the periodic resync), then reads the keys.
   * Rejects when that first read fails; the resync keeps trying either way.
   */
  start(): Promise<void> {
    return this.#copy.start();
  }

  /** False until the keys were read from Postgres once: until then nobody knows which keys exist. */
  readable(): boolean {
    return this.#copy.loaded;
  }

  /** Replaces the copy with what Postgres holds now. */
  reload(): Promise<void> {
    return this.#copy.reload();
  }

  list(): ApplicationKey[] {
    return [...this.#keys.values()].map((key) => ({ ...key }));
  }

  find(id: string): ApplicationKey | undefined {
    return this.#keys.get(id);
  }

  async add(key: ApplicationKey): Promise<void> {
    const valid = applicationKeySchema.parse(key);
    const result = await this.#write('create the key', () =>
      this.#pool.query(
        `INSERT INTO application_keys (id, name, hash, hint, scopes, limits, created_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::timestamptz, $8::timestamptz)
         ON CONFLICT (id) DO NOTHING`,
        [valid.id, valid.name, valid.hash, valid.hint, JSON.stringify(valid.scopes), JSON.stringify(valid.limits), valid.created_at, valid.revoked_at ?? null],
      ),
    );
    if (result.rowCount !== 1) throw new Error(`a key with id ${key.id} exists`);
    this.#keys.set(valid.id, valid);
    this.#changed();
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    // Postgres decides, not the copy: the key may have been created or revoked on another instance just now.
    const result = await this.#write('revoke the key', () =>
      this.#pool.query<{ revoked_at: Date }>(
        'UPDATE application_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING revoked_at',
        [id, at.toISOString()],
      ),
    );
    const revokedAt = result.rows[0]?.revoked_at;
    if (!revokedAt) return false;
    const known = this.#keys.get(id);
    if (known) this.#keys.set(id, { ...known, revoked_at: revokedAt.toISOString() });
    else void this.#copy.resync('revoked a key created elsewhere');
    this.#changed();
    return true;
  }

  adminHash(): string | undefined {
    return this.#admin;
  }

  async setAdminHash(hash: string): Promise<void> {
    await this.#write('store the admin key', () =>
      this.#pool.query(
        `INSERT INTO admin_key (singleton, hash) VALUES (true, $1)
         ON CONFLICT (singleton) DO UPDATE SET hash = excluded.hash, updated_at = now()`,
        [hash],
      ),
    );
    this.#admin = hash;
    this.#changed();
  }

  async close(): Promise<void> {
    this.#copy.stop();
    if (this.#ownsPool) await this.#pool.end();
  }

  /** Runs a write; Postgres errors become a 503 that says nothing was changed. */
  async #write<Result>(what: string, query: () => Promise<Result>): Promise<Result> {
    try {
      await this.ready();
      return await query();
    } catch (error) {
      throw new GatewayError(
        'unavailable',
        `Could not ${what}: the cluster's key store (Postgres) is unreachable, so nothing was changed. Try again once it is back.`,
        { cause: error },
      );
    }
  }

  #changed(): void {
    this.#copy.wrote();
  }
}
