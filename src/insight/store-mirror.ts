import Database from 'better-sqlite3';
import type { LedgerFact } from '../store/ledger-facts.js';
import type { LedgerStore } from '../store/ledger-store.js';
import { factColumns } from '../store/sqlite/ledger-fact-columns.js';
import { type LedgerMirror, createFactTables, factColumnList } from './ledger-mirror.js';

/**
 * The copy of any `LedgerStore` (in a cluster, the Postgres ledger every instance writes), in a private in-memory
 * SQLite database, fed by `factsSince`: the first sync brings every request, later ones only what was written
 * since, so a refresh costs one short query when nothing changed. Facts sent again are ignored (stored rows never
 * change), and only new ones move `version`, so remembered aggregates stay valid.
 */
export class StoreMirror implements LedgerMirror {
  readonly database = new Database(':memory:');
  readonly #store: LedgerStore;
  readonly #ownsStore: boolean;
  readonly #pageSize: number;
  #cursor: string | undefined;
  #version = 0;
  #syncing: Promise<void> | undefined;
  readonly #insertFacts: (facts: readonly LedgerFact[]) => number;

  constructor(store: LedgerStore, options: { ownsStore?: boolean; pageSize?: number } = {}) {
    this.#store = store;
    this.#ownsStore = options.ownsStore ?? false;
    this.#pageSize = options.pageSize ?? 5_000;
    createFactTables(this.database, { uniqueRequests: true });
    const insertFact = this.database.prepare(
      `INSERT OR IGNORE INTO temp.facts (${factColumnList}) VALUES (${factColumns.map(() => '?').join(', ')})`,
    );
    const insertAttemptError = this.database.prepare('INSERT INTO temp.attempt_errors VALUES (?, ?, ?, ?)');
    this.#insertFacts = this.database.transaction((facts: readonly LedgerFact[]) => {
      let added = 0;
      for (const fact of facts) {
        const values = factColumns.map(([, , name]) => (name === 'usageEstimated' ? (fact.usageEstimated ? 1 : 0) : fact[name]));
        if (insertFact.run(values).changes === 0) continue;
        added += 1;
        for (const attempt of fact.failedAttempts) insertAttemptError.run(fact.requestId, attempt.provider, attempt.model, attempt.errorClass);
      }
      return added;
    });
  }

  get version(): number {
    return this.#version;
  }

  sync(): Promise<void> {
    this.#syncing ??= this.#catchUp().finally(() => {
      this.#syncing = undefined;
    });
    return this.#syncing;
  }

  async #catchUp(): Promise<void> {
    for (;;) {
      const page = await this.#store.factsSince({ limit: this.#pageSize, ...(this.#cursor === undefined ? {} : { cursor: this.#cursor }) });
      if (!this.database.open) return;
      this.#version += this.#insertFacts(page.facts);
      this.#cursor = page.cursor;
      if (page.complete) return;
    }
  }

  async close(): Promise<void> {
    if (this.database.open) this.database.close();
    if (this.#ownsStore) await this.#store.close();
  }
}
