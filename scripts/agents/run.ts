/**
 * `npm run test:agents`: the agent compatibility suite. Installs the pinned agent CLIs (agents.ts) into a cache
 * directory outside the repository, starts a fake provider and a gateway in front of it, runs every agent
 * non-interactively through the gateway (a text turn, and a tool turn that makes it run `ls`), and prints the
 * matrix. `--json` prints the rows as JSON; `--only a,b` runs some agents; exits 1 when a turn failed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseConfig } from '../../src/pipeline/load-config.js';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { startGateway } from '../../src/server/start-gateway.js';
import { startFakeUpstream } from '../../test/support/fake-upstream/index.js';
import { agentProviderBehaviour, toolResultIn } from './agent-provider.js';
import { agents, type AgentSpec } from './agents.js';
import { agentBinary, agentsCacheDir, installAgent } from './install.js';

const turnTimeoutMs = 240_000;
const textPrompt = 'Reply with the single word pong.';
const toolPrompt = 'run ls in the current directory and tell me the file names.';

export interface MatrixRow {
  agent: string;
  version: string;
  speaks: string;
  model: string;
  text: 'pass' | 'fail' | 'skipped';
  tool: 'pass' | 'fail' | 'skipped';
  /** Tools the agent sent (what would go upstream directly) and what the gateway sent on, with the reason. */
  toolsDirect?: number;
  toolsThroughGateway?: number;
  toolRouting?: string;
  note?: string;
}

interface TurnOutcome {
  ok: boolean;
  note?: string;
  records: RequestRecord[];
}

function runAgent(binary: string, args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary, args, { cwd, env: { PATH: process.env['PATH'] ?? '', TERM: 'dumb', CI: '1', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), turnTimeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function main(): Promise<void> {
  const flags = process.argv.slice(2);
  const json = flags.includes('--json');
  const onlyIndex = flags.indexOf('--only');
  const only = onlyIndex === -1 ? undefined : new Set((flags[onlyIndex + 1] ?? '').split(','));
  const selected = agents.filter((agent) => only === undefined || only.has(agent.name));

  const installErrors = new Map<string, string | undefined>();
  await Promise.all(selected.map(async (agent) => installErrors.set(agent.name, await installAgent(agent))));

  const upstream = await startFakeUpstream();
  upstream.setScript({ respond: agentProviderBehaviour });
  const records: RequestRecord[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-agents-'));
  const config = parseConfig(
    {
      server: { port: 0 },
      providers: [
        { id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'sk-fake', models: ['local-agent'] },
        { id: 'claude', kind: 'anthropic', base_url: upstream.url, api_key: 'sk-fake', models: ['claude-agent'] },
      ],
      default_model: 'local-agent',
      tool_routing: { mode: 'on' },
      logging: { level: 'silent' },
    },
    'agents suite',
  );
  const running = await startGateway({
    config,
    dataDir,
    env: {},
    logger: pino({ level: 'silent' }),
    observers: [{ requestStarted() {}, requestFinished: (record) => void records.push(structuredClone(record)) }],
  });

  const rows: MatrixRow[] = [];
  try {
    for (const agent of selected) {
      for (const model of agent.models) {
        const row: MatrixRow = { agent: agent.name, version: agent.version, speaks: agent.speaks, model, text: 'skipped', tool: 'skipped' };
        rows.push(row);
        const installError = installErrors.get(agent.name);
        if (installError !== undefined) {
          row.note = installError;
          continue;
        }
        const text = await turn(agent, running.url, model, textPrompt, (output) => output.toLowerCase().includes('pong'), records);
        row.text = text.ok ? 'pass' : 'fail';
        const upstreamBefore = upstream.requests.length;
        // Passed when the agent printed the listing and the provider saw it come back as a tool result: the
        // agent really ran `ls` on the call the gateway relayed.
        const tool = await turn(
          agent,
          running.url,
          model,
          toolPrompt,
          (output) => output.includes('alpha.txt') && upstream.requests.slice(upstreamBefore).some((request) => (toolResultIn(request) ?? '').includes('alpha.txt')),
          records,
        );
        row.tool = tool.ok ? 'pass' : 'fail';
        const decided = tool.records.map((record) => record.decision.tools).filter((decision) => decision !== undefined);
        const widest = decided.sort((left, right) => right.fullToolCount - left.fullToolCount)[0];
        if (widest !== undefined) {
          row.toolsDirect = widest.fullToolCount;
          row.toolsThroughGateway = widest.sentToolCount;
          const recoveries = decided.reduce((total, decision) => total + (decision.recoveries ?? 0), 0);
          row.toolRouting = `${widest.outcome}: ${widest.reason}${recoveries > 0 ? `, ${recoveries} request_toolset` : ''}`;
        }
        const notes = [text.note, tool.note].filter((note) => note !== undefined);
        if (notes.length > 0) row.note = notes.join('; ');
      }
    }
  } finally {
    await running.close();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const turns = rows.flatMap((row) => [row.text, row.tool]);
  const passed = turns.filter((result) => result === 'pass').length;
  if (json) process.stdout.write(`${JSON.stringify({ cache: agentsCacheDir(), rows }, null, 2)}\n`);
  else process.stdout.write(`${matrix(rows)}\n\nagents: ${passed} passed, ${turns.length - passed} failed\n`);
  process.exitCode = passed === turns.length ? 0 : 1;
}

async function turn(
  agent: AgentSpec,
  gatewayUrl: string,
  model: string,
  prompt: string,
  passed: (output: string) => boolean,
  allRecords: RequestRecord[],
): Promise<TurnOutcome> {
  const home = mkdtempSync(join(tmpdir(), `agent-home-${agent.name}-`));
  const workdir = mkdtempSync(join(tmpdir(), `agent-work-${agent.name}-`));
  writeFileSync(join(workdir, 'alpha.txt'), 'a\n');
  writeFileSync(join(workdir, 'beta.txt'), 'b\n');
  const first = allRecords.length;
  try {
    const command = agent.command({ gatewayUrl, model, home, workdir }, prompt);
    const result = await runAgent(agentBinary(agent), command.args, { HOME: home, ...command.env }, workdir);
    const records = allRecords.slice(first);
    const ok = result.code === 0 && passed(result.output);
    const failedRequests = records.filter((record) => record.status !== 200);
    const note = ok
      ? undefined
      : `exit ${String(result.code)}${failedRequests.length > 0 ? `, ${failedRequests.length} gateway errors (${failedRequests[0]?.errorClass ?? ''})` : ''}: ${lastLines(result.output)}`;
    return { ok, records, ...(note !== undefined ? { note } : {}) };
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(workdir, { recursive: true, force: true });
  }
}

function lastLines(output: string): string {
  return output.trim().split('\n').slice(-3).join(' | ').slice(0, 300);
}

function mark(result: MatrixRow['text']): string {
  return result === 'pass' ? '✓' : result === 'fail' ? '✗' : '–';
}

function matrix(rows: MatrixRow[]): string {
  const lines = [
    '| agent | speaks | model | text | tool turn | tools direct → through gateway |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const tools = row.toolsDirect === undefined ? '–' : `${row.toolsDirect} → ${row.toolsThroughGateway ?? '?'} (${row.toolRouting ?? ''})`;
      return `| ${row.agent} ${row.version} | ${row.speaks} | ${row.model} | ${mark(row.text)} | ${mark(row.tool)} | ${tools} |`;
    }),
  ];
  const notes = rows.filter((row) => row.note !== undefined).map((row) => `- ${row.agent} (${row.model}): ${row.note ?? ''}`);
  return [...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}

await main();
