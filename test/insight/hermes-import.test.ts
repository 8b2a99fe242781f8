import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { importHermesCommand } from '../../src/cli/import-hermes.js';
import { LedgerReader } from '../../src/insight/ledger-reader.js';
import { hermesCompressionProbe, openHermesState, readCompressionHealth, readHermesUsage, viaGateway } from '../../src/insight/hermes-state.js';
import { scoreSessions } from '../../src/insight/quality.js';
import { testModels } from './insight-fixture.js';

// The shared fixtures sit next to the repository (`../shared`), wherever the checkout is.
const schema = readFileSync(new URL('../../../shared/fixtures/hermes/state-schema.sql', import.meta.url), 'utf8');
const start = Date.UTC(2026, 10, 20, 9) / 1000;

/** A Hermes home whose state.db is built from the real schema (version 22). */
function hermesHomeWith(populate: (database: Database.Database) => void, options: { keepOpen?: boolean } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'hermes-home-'));
  const database = new Database(join(home, 'state.db'));
  database.pragma('journal_mode = WAL');
  database.exec(schema);
  populate(database);
  if (!options.keepOpen) database.close();
  return { home, database };
}

function addSession(database: Database.Database, values: Record<string, unknown>): void {
  const columns = Object.keys(values);
  database.prepare(`INSERT INTO sessions (${columns.join(', ')}) VALUES (${columns.map((name) => `@${name}`).join(', ')})`).run(values);
}

function addUsage(database: Database.Database, values: Record<string, unknown>): void {
  const columns = Object.keys(values);
  database.prepare(`INSERT INTO session_model_usage (${columns.join(', ')}) VALUES (${columns.map((name) => `@${name}`).join(', ')})`).run(values);
}

function populate(database: Database.Database): void {
  // Through the gateway (already in its ledger), direct to OpenRouter (ended), direct and still running.
  addSession(database, { id: 'via-gateway', source: 'cli', model: 'big', started_at: start, ended_at: start + 60, input_tokens: 5000, output_tokens: 100 });
  addUsage(database, { session_id: 'via-gateway', model: 'big', billing_provider: 'custom', billing_base_url: 'http://localhost:8319/v1', input_tokens: 5000, output_tokens: 100 });
  addSession(database, { id: 'direct', source: 'cli', model: 'big', started_at: start + 100, ended_at: start + 400, compression_fallback_streak: 2 });
  addUsage(database, { session_id: 'direct', model: 'anthropic/claude-sonnet-4.5', billing_provider: 'openrouter', billing_base_url: 'https://openrouter.ai/api/v1', input_tokens: 40_000, output_tokens: 2_000, cache_read_tokens: 30_000, actual_cost_usd: 0.05, estimated_cost_usd: 0.06 });
  addUsage(database, { session_id: 'direct', model: 'openai/gpt-4o-mini', billing_provider: 'openrouter', billing_base_url: 'https://openrouter.ai/api/v1', task: 'title', input_tokens: 300, output_tokens: 12, estimated_cost_usd: 0.0001 });
  addSession(database, { id: 'running', source: 'cli', model: 'big', started_at: start + 500 });
  addUsage(database, { session_id: 'running', model: 'big', billing_provider: 'openrouter', billing_base_url: 'https://openrouter.ai/api/v1', input_tokens: 1000, output_tokens: 10 });
}

async function runImport(args: string[]): Promise<Record<string, unknown>> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const stderr = new PassThrough();
  let errors = '';
  stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await importHermesCommand.run([...args, '--json'], { stdout, stderr, env: {}, cwd: tmpdir() });
  if (code !== 0) throw new Error(`exit ${code}: ${errors}`);
  return JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('Hermes state.db', () => {
  it('reads per-model usage read-only, sees rows still in the WAL, and never changes the file', () => {
    const { home, database: writer } = hermesHomeWith(populate, { keepOpen: true });
    // A running Hermes: a row committed to the WAL and not checkpointed.
    writer.pragma('wal_autocheckpoint = 0');
    addSession(writer, { id: 'late', source: 'cli', started_at: start + 900, ended_at: start + 950 });
    const path = join(home, 'state.db');
    const state = openHermesState(path);
    if (!state) throw new Error('not opened');
    expect(() => state.exec("INSERT INTO state_meta VALUES ('x', 'y')")).toThrow();
    const rows = readHermesUsage(state);
    expect(rows.filter((row) => row.sessionId === 'direct').map((row) => row.model).sort()).toEqual(['anthropic/claude-sonnet-4.5', 'openai/gpt-4o-mini']);
    const sonnet = rows.find((row) => row.model === 'anthropic/claude-sonnet-4.5');
    expect(sonnet).toMatchObject({ inputTokens: 40_000, outputTokens: 2_000, cacheReadTokens: 30_000, costUsd: 0.05, startedAt: (start + 100) * 1000, endedAt: (start + 400) * 1000 });
    expect(readCompressionHealth(state, 'direct')?.healthy).toBe(false);
    expect(readCompressionHealth(state, 'running')?.healthy).toBe(true);
    // The WAL row is visible (immutable=1 would hide it): the session-level fallback sees 'late'.
    expect(state.prepare("SELECT COUNT(*) AS n FROM sessions WHERE id = 'late'").get()).toEqual({ n: 1 });
    state.close();
    writer.close();
  });

  it('reports the compression health of the latest open Hermes session for the nudge', () => {
    const { home } = hermesHomeWith(populate);
    // 'running' is the only open session and has a zero fallback streak.
    expect(hermesCompressionProbe(join(home, 'state.db'))()).toBe(true);
    expect(hermesCompressionProbe(join(home, 'missing.db'))()).toBeUndefined();
  });

  it('tolerates schema drift: an old file without session_model_usage and most columns', () => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-old-'));
    const database = new Database(join(home, 'state.db'));
    database.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, started_at REAL, ended_at REAL, model TEXT, input_tokens INTEGER, output_tokens INTEGER)');
    database.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)').run('old', start, start + 5, 'gpt-4o', 900, 50);
    database.close();
    const state = openHermesState(join(home, 'state.db'));
    if (!state) throw new Error('not opened');
    expect(readHermesUsage(state)).toEqual([
      expect.objectContaining({ sessionId: 'old', model: 'gpt-4o', inputTokens: 900, outputTokens: 50, cacheReadTokens: 0, costUsd: null, billingBaseUrl: null }),
    ]);
    expect(readCompressionHealth(state, 'old')).toBeUndefined();
    state.close();
  });

  it('recognises the gateway by host and port, loopback names alike', () => {
    expect(viaGateway('http://localhost:8319/v1', ['http://127.0.0.1:8319'])).toBe(true);
    expect(viaGateway('http://127.0.0.1:8319/anthropic', ['http://127.0.0.1:8319'])).toBe(true);
    expect(viaGateway('http://127.0.0.1:9000/v1', ['http://127.0.0.1:8319'])).toBe(false);
    expect(viaGateway('https://openrouter.ai/api/v1', ['http://127.0.0.1:8319'])).toBe(false);
  });

  it('imports ended sessions that bypassed the gateway once, leaves the state file unchanged, and reports them unscored', async () => {
    const { home } = hermesHomeWith(populate);
    const statePath = join(home, 'state.db');
    const dataDir = mkdtempSync(join(tmpdir(), 'hermes-import-data-'));
    const config = join(dataDir, 'hermes-router.yaml');
    writeFileSync(config, 'server: {host: 127.0.0.1, port: 8319}\n');
    const before = digest(statePath);
    const dry = await runImport(['--hermes-home', home, '--data-dir', dataDir, '--config', config, '--dry-run']);
    expect(dry).toMatchObject({ imported: 2, skippedViaGateway: 1, skippedRunning: 1, dryRun: true });
    expect(LedgerReader.open(join(dataDir, 'ledger.sqlite'))).toBeUndefined();
    const first = await runImport(['--hermes-home', home, '--data-dir', dataDir, '--config', config]);
    expect(first).toMatchObject({ imported: 2, tokens: 40_000 + 2_000 + 300 + 12 });
    await runImport(['--hermes-home', home, '--data-dir', dataDir, '--config', config]);
    expect(digest(statePath)).toBe(before);
    const reader = LedgerReader.open(join(dataDir, 'ledger.sqlite'));
    if (!reader) throw new Error('no ledger');
    const groups = reader.usageGroups();
    expect(groups.reduce((total, group) => total + group.requests, 0)).toBe(2);
    expect(groups.reduce((total, group) => total + group.inputTokens, 0)).toBe(40_300);
    expect(groups.reduce((total, group) => total + group.costUsd, 0)).toBeCloseTo(0.0501, 10);
    const [session] = scoreSessions(reader.sessionStats(), testModels());
    expect(session?.sessionId).toBe('hermes:direct');
    // Session totals are not one prompt: no fill, no score (never a cumulative fill).
    expect(session?.score).toBeNull();
    reader.close();
  });

  it('falls back to a session\'s own totals when session_model_usage has no rows for it', () => {
    const { home } = hermesHomeWith((database) => {
      populate(database);
      // Recorded by a Hermes that filled only `sessions` (or before session_model_usage existed).
      addSession(database, { id: 'totals-only', source: 'cli', model: 'claude-sonnet-4-5', started_at: start + 1000, ended_at: start + 1100, input_tokens: 7000, output_tokens: 300, billing_provider: 'anthropic' });
    });
    const state = openHermesState(join(home, 'state.db'));
    if (!state) throw new Error('not opened');
    const rows = readHermesUsage(state);
    state.close();
    expect(rows.filter((row) => row.sessionId === 'totals-only')).toEqual([
      expect.objectContaining({ model: 'claude-sonnet-4-5', inputTokens: 7000, outputTokens: 300, billingProvider: 'anthropic' }),
    ]);
    // Sessions with per-model rows are still read from them, not twice.
    expect(rows.filter((row) => row.sessionId === 'direct')).toHaveLength(2);
  });

  it('a second run says nothing new was imported; rows without a Hermes cost get the config price for their model', async () => {
    const { home } = hermesHomeWith((database) => {
      addSession(database, { id: 'unpriced', source: 'cli', started_at: start, ended_at: start + 60 });
      // Hermes's provider id (`custom-lab`) is not the config's (`lab`); the model id is the same.
      addUsage(database, { session_id: 'unpriced', model: 'big', billing_provider: 'custom-lab', billing_base_url: 'http://10.0.0.5:9000/v1', input_tokens: 1_000_000, output_tokens: 100_000 });
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'hermes-import-priced-'));
    const config = join(dataDir, 'hermes-router.yaml');
    writeFileSync(
      config,
      'server: {host: 127.0.0.1, port: 8319}\nproviders:\n  - {id: lab, kind: openai-compatible, base_url: "http://127.0.0.1:9/v1", models: [{id: big, prices: {input: 3, output: 15}}]}\n',
    );
    const first = await runImport(['--hermes-home', home, '--data-dir', dataDir, '--config', config]);
    expect(first).toMatchObject({ imported: 1, alreadyImported: 0, pricedFromConfig: 1 });
    const reader = LedgerReader.open(join(dataDir, 'ledger.sqlite'));
    if (!reader) throw new Error('no ledger');
    // 1M input at $3 + 100k output at $15 = $4.50, the same number for the CLI reports and the dashboard.
    expect(reader.usageGroups().reduce((total, group) => total + group.costUsd, 0)).toBeCloseTo(4.5, 10);
    reader.close();
    const second = await runImport(['--hermes-home', home, '--data-dir', dataDir, '--config', config]);
    expect(second).toMatchObject({ imported: 0, alreadyImported: 1 });
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await importHermesCommand.run(['--hermes-home', home, '--data-dir', dataDir, '--config', config], { stdout, stderr: new PassThrough(), env: {}, cwd: tmpdir() });
    expect(text).toContain('Nothing new to import');
    expect(text).toContain('1 session/model rows were imported before');
  });
});
