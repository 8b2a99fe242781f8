import type pg from 'pg';
import { emptyPolicyDocument, policyDocumentSchema } from '../policy/policy-document.js';
import type { PolicyDocument } from '../policy/policy-document.js';
import { PolicyRevisionConflict } from '../policy/policy-store.js';
import type { PolicyStore } from '../policy/policy-store.js';
import { applyPostgresMigrations } from './postgres-migrations.js';
import type { PostgresMigration } from './postgres-migrations.js';
import { type PostgresConnectionOptions, createPostgresPool, defaultPostgresSchema } from './postgres-pool.js';

const policyMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'policy documents',
    sql: `
      CREATE TABLE policy_documents (
        name TEXT PRIMARY KEY,
        revision INTEGER NOT NULL,
        document JSONB NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
  },
];

export interface PostgresPolicyStoreOptions extends PostgresConnectionOptions {
  pool?: pg.Pool;
  /** Row name; one per deployment sharing a schema. */
  name?: string;
}

/**
 * The model policy shared by every gateway instance: one JSONB row, saved with compare-and-set on its revision in
 * a single statement (an INSERT that only succeeds when no row exists for revision 0, else an UPDATE guarded by
 * the revision), so two instances switching models at once cannot overwrite each other.
 */
export class PostgresPolicyStore implements PolicyStore {
  readonly specificationVersion = 'v1' as const;
  readonly location: string;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #name: string;
  readonly #schema: string;
  #ready: Promise<number> | undefined;

  constructor(options: PostgresPolicyStoreOptions) {
    this.#schema = options.schema ?? defaultPostgresSchema;
    this.#name = options.name ?? 'default';
    this.#ownsPool = options.pool === undefined;
    this.#pool = options.pool ?? createPostgresPool(options);
    this.location = `postgres ${this.#schema}.policy_documents/${this.#name}`;
  }

  ready(): Promise<number> {
    this.#ready ??= applyPostgresMigrations(this.#pool, this.#schema, 'policy', policyMigrations).catch(
      (error: unknown) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }

  async load(): Promise<PolicyDocument> {
    await this.ready();
    const result = await this.#pool.query<{ document: unknown }>(
      'SELECT document FROM policy_documents WHERE name = $1',
      [this.#name],
    );
    const row = result.rows[0];
    if (!row) return emptyPolicyDocument();
    const parsed = policyDocumentSchema.safeParse(row.document);
    if (!parsed.success) {
      throw new Error(`${this.location} is not a model policy: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    return parsed.data;
  }

  async save(next: PolicyDocument, expectedRevision: number): Promise<void> {
    await this.ready();
    const document = JSON.stringify(policyDocumentSchema.parse(next));
    const result =
      expectedRevision === 0
        ? await this.#pool.query(
            `INSERT INTO policy_documents (name, revision, document) VALUES ($1, $2, $3::jsonb)
             ON CONFLICT (name) DO NOTHING RETURNING revision`,
            [this.#name, next.revision, document],
          )
        : await this.#pool.query(
            `UPDATE policy_documents SET revision = $2, document = $3::jsonb, updated_at = now()
             WHERE name = $1 AND revision = $4 RETURNING revision`,
            [this.#name, next.revision, document, expectedRevision],
          );
    if (result.rowCount === 1) return;
    throw new PolicyRevisionConflict(expectedRevision, (await this.load()).revision);
  }

  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}
