/**
 * Soak: a bounded run of mixed traffic through a real gateway process on loopback, with faults injected
 * upstream and clients that disconnect mid-stream. Reports the gateway's RSS at start and end, its open
 * sockets after the traffic, upstream calls left running, and requests sent vs ledger rows. Then three hostile
 * phases (bench/soak-hostile.ts; `--hostile false` skips them): slow request bodies, oversized upstream
 * answers (8 × 50 MB by default) and a provider key the upstream refuses, each with RSS, sockets and ledger
 * rows before and after.
 *
 *   npx tsx bench/soak.ts [--duration 120] [--concurrency 12] [--oversized-mb 50] [--slow-bodies 200] [--json]
 *
 * Pass criteria (exit 1 otherwise): every request sent has exactly one ledger row, no upstream call is left in
 * flight, open sockets after the run are back to the baseline, RSS growth under --max-rss-growth-mb; slow
 * bodies all closed within the body timeout; peak RSS under oversized answers below 1 GiB; the refused key
 * tried at most 3 times and every request served.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import type { FakeBehaviour } from '../test/support/fake-upstream/index.js';
import { startFakeUpstream } from '../test/support/fake-upstream/index.js';
import { spawnGateway } from '../test/support/spawn-gateway.js';
import { SqliteLedgerStore } from '../src/store/sqlite/sqlite-ledger-store.js';
import { oversizedResponses, refusedKey, slowBodies, startBulkUpstream } from './soak-hostile.js';
import type { PhaseReport } from './soak-hostile.js';

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '120' },
    concurrency: { type: 'string', default: '12' },
    'max-rss-growth-mb': { type: 'string', default: '64' },
    json: { type: 'boolean', default: false },
    hostile: { type: 'string', default: 'true' },
    'oversized-mb': { type: 'string', default: '50' },
    'slow-bodies': { type: 'string', default: '200' },
  },
});
// Bounded on purpose: a soak here is minutes, not hours.
const durationMs = Math.min(600, Math.max(5, Number(flags.duration))) * 1000;
const concurrency = Math.max(1, Number(flags.concurrency));
const maximumGrowthKb = Number(flags['max-rss-growth-mb']) * 1024;

/** A small deterministic generator, so two runs inject the same mix. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = seededRandom(20_261_130);

function residentKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

function openSockets(pid: number): number {
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) count += 1;
    } catch {
      // The descriptor closed while we looked.
    }
  }
  return count;
}

/** The upstream fault mix, per request. */
function upstreamBehaviour(stream: boolean): FakeBehaviour | undefined {
  const roll = random();
  if (roll < 0.04) return { kind: 'error', status: 503 };
  if (roll < 0.06) return { kind: 'error', status: 429 };
  if (roll < 0.07) return { kind: 'error', status: 429, retryAfterMs: 100 };
  if (roll < 0.09) return { kind: 'reset' };
  if (roll < 0.1) return { kind: 'hang' };
  if (stream && roll < 0.13) return { kind: 'synthetic', chunkCount: 60, cutAfterChunks: 41 };
  if (stream && roll < 0.15) return { kind: 'synthetic', chunkCount: 60, stallAfterChunks: 10 };
  // Streams long enough for a client to walk away in the middle.
  return { kind: 'synthetic', chunkCount: stream ? 40 : 8, ...(stream ? { interChunkDelayMs: 3 } : {}) };
}

interface Tally {
  sent: number;
  byStatus: Record<string, number>;
  disconnected: number;
  clientErrors: number;
}

async function oneRequest(baseUrl: string, dispatcher: Agent, tally: Tally): Promise<void> {
  const anthropic = random() < 0.5;
  const stream = random() < 0.6;
  const disconnect = stream && random() < 0.12;
  const body = anthropic
    ? { model: 'claude-test', max_tokens: 64, stream, messages: [{ role: 'user', content: `soak ${tally.sent}` }] }
    : { model: 'gpt-test', stream, messages: [{ role: 'user', content: `soak ${tally.sent}` }] };
  const controller = new AbortController();
  tally.sent += 1;
  try {
    const response = await request(`${baseUrl}${anthropic ? '/v1/messages' : '/v1/chat/completions'}`, {
      method: 'POST',
      dispatcher,
      signal: controller.signal,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    tally.byStatus[response.statusCode] = (tally.byStatus[response.statusCode] ?? 0) + 1;
    let chunks = 0;
    for await (const chunk of response.body) {
      void chunk;
      chunks += 1;
      if (disconnect && chunks === 3) {
        tally.disconnected += 1;
        controller.abort();
        break;
      }
    }
  } catch {
    if (!controller.signal.aborted) tally.clientErrors += 1;
  }
}

async function main(): Promise<number> {
  const upstream = await startFakeUpstream();
  const oversizedMb = Math.max(1, Number(flags['oversized-mb']));
  const bulk = await startBulkUpstream(oversizedMb);
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-soak-'));
  const config = {
    providers: [
      { id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, api_keys: ['sk-soak-a', 'sk-soak-b'], models: ['gpt-test', 'big-test'] },
      { id: 'claude', kind: 'anthropic', base_url: upstream.url, api_key: 'sk-ant-soak', models: ['claude-test', 'claude-big'] },
      { id: 'bulk', kind: 'openai-compatible', base_url: `${bulk.url}/v1`, api_key: 'sk-bulk', models: ['bulk-test'] },
    ],
    fallbacks: { 'gpt-test': ['big-test'], 'claude-test': ['claude-big'] },
    timeouts: { connect_ms: 2_000, first_byte_ms: 1_500, idle_ms: 1_000 },
    resilience: { cooldown_ms: 300, retry_after_cap_ms: 200, breaker: { min_calls: 20, failure_rate: 0.8, window_ms: 10_000, open_ms: 1_000 } },
    ledger: { flush_interval_ms: 200 },
    // Short, so the slow-body phase ends in seconds; the 30 s default behaves the same, only slower.
    server: { host: '127.0.0.1', body_timeout_ms: 2_000 },
  };
  const gateway = await spawnGateway(dataDir, config as never, { HERMES_ROUTER_LOG_LEVEL: 'fatal' });
  const pid = gateway.child.pid ?? 0;
  const upstreamTotals = { requests: 0, aborted: 0 };
  const script = () => upstream.setScript({ respond: (received) => upstreamBehaviour(received.json !== null && typeof received.json === 'object' && (received.json as { stream?: unknown }).stream === true) });
  script();
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const tally: Tally = { sent: 0, byStatus: {}, disconnected: 0, clientErrors: 0 };
  const socketsAtStart = openSockets(pid);
  const residentAtStart = residentKb(pid);
  const samples: { atS: number; rssMb: number; sockets: number }[] = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    samples.push({ atS: Math.round((Date.now() - started) / 1000), rssMb: Math.round(residentKb(pid) / 1024), sockets: openSockets(pid) });
    // The fake keeps every request it saw; fold the counts and drop them so the bench itself stays flat.
    if (upstream.inFlightRequests() === 0) {
      upstreamTotals.requests += upstream.requestCount();
      upstreamTotals.aborted += upstream.abortedRequests();
      upstream.reset();
      script();
    }
  }, 5_000);
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) await oneRequest(gateway.url, dispatcher, tally);
    }),
  );
  clearInterval(sampler);
  await dispatcher.close();
  // Let disconnects propagate and idle keep-alive sockets close.
  const settleDeadline = Date.now() + 5_000;
  while ((upstream.inFlightRequests() > 0 || openSockets(pid) > socketsAtStart) && Date.now() < settleDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const residentAtEnd = residentKb(pid);
  const socketsAtEnd = openSockets(pid);
  const upstreamInFlight = upstream.inFlightRequests();
  upstreamTotals.requests += upstream.requestCount();
  upstreamTotals.aborted += upstream.abortedRequests();
  const phases: PhaseReport[] = [];
  if (flags.hostile !== 'false') {
    upstream.reset();
    phases.push(await slowBodies(pid, dataDir, gateway.url, Math.max(1, Number(flags['slow-bodies'])), 2_000));
    phases.push(await oversizedResponses(pid, dataDir, gateway.url, { count: 8, megabytes: oversizedMb, peakLimitMb: 1024 }));
    phases.push(await refusedKey(pid, dataDir, gateway.url, upstream, { requests: 200, refusedKey: 'sk-soak-a' }));
  }
  gateway.child.kill('SIGTERM');
  const exitCode = await gateway.exited;
  const store = new SqliteLedgerStore({ path: join(dataDir, 'ledger.sqlite') });
  const totals = await store.totals();
  await store.close();
  await upstream.close();
  await bulk.close();
  rmSync(dataDir, { recursive: true, force: true });

  const result = {
    duration_s: Math.round((Date.now() - started) / 1000),
    concurrency,
    requests_sent: tally.sent,
    ledger_rows: totals.requests - phases.reduce((sum, phase) => sum + phase.ledger_rows_after - phase.ledger_rows_before, 0),
    lost_rows: tally.sent - (totals.requests - phases.reduce((sum, phase) => sum + phase.ledger_rows_after - phase.ledger_rows_before, 0)),
    statuses: tally.byStatus,
    client_disconnects: tally.disconnected,
    client_errors: tally.clientErrors,
    upstream_calls: upstreamTotals.requests,
    upstream_calls_cancelled: upstreamTotals.aborted,
    upstream_in_flight_after: upstreamInFlight,
    rss_mb_start: Math.round(residentAtStart / 1024),
    rss_mb_end: Math.round(residentAtEnd / 1024),
    sockets_start: socketsAtStart,
    sockets_end: socketsAtEnd,
    gateway_exit: exitCode,
    samples,
    phases,
  };
  const passed =
    result.lost_rows === 0 &&
    upstreamInFlight === 0 &&
    socketsAtEnd <= socketsAtStart &&
    residentAtEnd - residentAtStart < maximumGrowthKb &&
    exitCode === 0 &&
    phases.every((phase) => phase.passed);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...result, passed })}\n`);
  } else {
    process.stdout.write(
      `soak ${result.duration_s}s at concurrency ${concurrency}: ${result.requests_sent} requests sent, ${result.ledger_rows} ledger rows (lost ${result.lost_rows})\n` +
        `  statuses ${JSON.stringify(result.statuses)}; ${result.client_disconnects} client disconnects; ${result.client_errors} client errors\n` +
        `  upstream: ${result.upstream_calls} calls, ${result.upstream_calls_cancelled} cancelled, ${upstreamInFlight} still in flight after\n` +
        `  gateway RSS ${result.rss_mb_start} → ${result.rss_mb_end} MiB; sockets ${socketsAtStart} → ${socketsAtEnd}; exit ${String(exitCode)}\n` +
        phases
          .map(
            (phase) =>
              `  ${phase.passed ? 'pass' : 'FAIL'} ${phase.phase}: RSS ${phase.rss_mb_start} → peak ${phase.rss_mb_peak} → ${phase.rss_mb_end} MiB; ` +
              `sockets ${phase.sockets_start} → peak ${phase.sockets_peak} → ${phase.sockets_end}; ledger rows ${phase.ledger_rows_before} → ${phase.ledger_rows_after}; ` +
              `${JSON.stringify(phase.details)}\n`,
          )
          .join('') +
        `  ${passed ? 'PASS' : 'FAIL'}\n`,
    );
  }
  return passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
