import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from '../../src/cli/command.js';
import { reportDailyCommand } from '../../src/cli/report-daily.js';
import { reportModelsCommand } from '../../src/cli/report-models.js';
import { reportQualityCommand } from '../../src/cli/report-quality.js';
import { reportRequestsCommand } from '../../src/cli/report-requests.js';
import { reportRoutingCommand } from '../../src/cli/report-routing.js';
import { reportSavingsCommand } from '../../src/cli/report-savings.js';
import { reportSessionsCommand } from '../../src/cli/report-sessions.js';
import { summaryCommand } from '../../src/cli/summary.js';
import { PostgresLedgerStore } from '../../src/store/postgres/postgres-ledger-store.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { SqliteLedgerStore } from '../../src/store/sqlite/sqlite-ledger-store.js';
import { seededRecords } from '../dashboard/dashboard-harness.js';
import { capturingContext } from '../support/cli-context.js';
import { pricedModelsConfig } from './insight-fixture.js';

const available = await postgresAvailable();
if (!available) console.warn(`skipping the report commands over a cluster ledger: no Postgres at ${postgresTestUrl}`);

async function run(command: Command, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const context = capturingContext({ env: { NO_COLOR: '1' }, cwd: tmpdir() });
  const code = await command.run(args, context);
  return { code, stdout: context.out(), stderr: context.err() };
}

/** Every number to 12 significant digits: the two databases add floating-point costs in different orders. */
function rounded(value: unknown): unknown {
  if (typeof value === 'number') return Number(value.toPrecision(12));
  if (Array.isArray(value)) return value.map(rounded);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, rounded(entry)]));
  return value;
}

describe.skipIf(!available)('every report command over a cluster ledger (Postgres)', () => {
  const schema = uniqueSchemaName('reports');
  const directories: string[] = [];
  afterAll(async () => {
    await dropSchemas([schema]);
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  it('answers exactly what it answers over the same rows in ledger.sqlite', async () => {
    // Rows over the last three days, so `summary` (today, 7 days) has something in both windows.
    const records = seededRecords(900, Date.now() - 3 * 86_400_000);
    const localDirectory = mkdtempSync(join(tmpdir(), 'reports-local-'));
    const clusterDirectory = mkdtempSync(join(tmpdir(), 'reports-cluster-'));
    directories.push(localDirectory, clusterDirectory);
    const sqlite = new SqliteLedgerStore({ path: join(localDirectory, 'ledger.sqlite') });
    await sqlite.insertBatch(records);
    await sqlite.close();
    const postgres = await PostgresLedgerStore.open({ url: postgresTestUrl, schema });
    await postgres.insertBatch(records.slice(0, 450));
    await postgres.insertBatch(records.slice(450));
    await postgres.close();
    const localConfig = join(localDirectory, 'hermes-router.yaml');
    const clusterConfig = join(clusterDirectory, 'hermes-router.yaml');
    writeFileSync(localConfig, pricedModelsConfig);
    writeFileSync(
      clusterConfig,
      `${pricedModelsConfig}storage: {kind: cluster, postgres_url: "${postgresTestUrl}", redis_url: "redis://127.0.0.1:9", postgres_schema: ${schema}}\n`,
    );

    const commands: [string, Command, string[]][] = [
      ['report daily', reportDailyCommand, []],
      ['report sessions', reportSessionsCommand, []],
      ['report models', reportModelsCommand, []],
      ['report requests', reportRequestsCommand, ['--limit', '20']],
      ['report routing', reportRoutingCommand, []],
      ['report savings', reportSavingsCommand, []],
      ['report quality', reportQualityCommand, []],
      ['summary', summaryCommand, []],
    ];
    for (const [name, command, extra] of commands) {
      const local = await run(command, ['--data-dir', localDirectory, '--config', localConfig, '--json', '--utc', ...extra]);
      // The cluster instance's data directory has no ledger.sqlite: anything it reports came from Postgres.
      const cluster = await run(command, ['--data-dir', clusterDirectory, '--config', clusterConfig, '--json', '--utc', ...extra]);
      expect(local.code, `${name}: ${local.stderr}`).toBe(0);
      expect(cluster.code, `${name}: ${cluster.stderr}`).toBe(0);
      expect(local.stdout, name).not.toMatch(/No ledger/);
      expect(rounded(JSON.parse(cluster.stdout)), name).toEqual(rounded(JSON.parse(local.stdout)));
    }
  });
});
