/**
 * Gateway overhead benchmark. In one run, against one local fake upstream, measures:
 *   direct (client → upstream), a minimal parse-and-forward proxy, and hermes-router,
 * streaming and not, at concurrency 1 and 32, with a 70 KB Hermes-shaped body. Prints added p50/p99 over
 * direct, requests/s, CPU per request of the proxy process, and ratios to the minimal proxy.
 *
 *   npm run bench:overhead [-- --requests 600 --rounds 4 --warmup 2000 --json] [-- --tuned="--max-semi-space-size=2 MALLOC_MMAP_THRESHOLD_=65536"]
 *
 * Every target first serves --warmup requests in each cell, unmeasured: a process's CPU per request falls for its
 * first ~2,000 requests (JIT, heap sizing), the minimal proxy's from ~1.6 to ~1.0 ms and the gateway's from ~2.0 to
 * ~0.9 ms at concurrency 1, so a short warm-up (200 until session 8) measured the start of that curve rather than a
 * gateway that has been running. The gateways run with the heap `hermes-router start` gives itself
 * (`productHeapFlags` in support.ts).
 *
 * --tuned adds a target: hermes-router as "hr" (tool routing off) run with those Node flags and environment
 * variables, to price a runtime setting in CPU per request (docs/deployment.md, "Memory and start time").
 *
 * Each server runs in its own process so its CPU time is its own; the machine is shared and noisy, so read
 * the ratios, not the absolute numbers.
 */
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { type BenchServer as Server, cpuOf, hermesBody as bodyFor, percentile, productHeapFlags, spawnServer } from './support.js';

const { values: flags } = parseArgs({
  options: {
    requests: { type: 'string', default: '600' },
    rounds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '2000' },
    json: { type: 'boolean', default: false },
    tuned: { type: 'string' },
  },
});
const tunedWords = (flags.tuned ?? '').split(' ').filter((word) => word.length > 0);
const tunedFlags = tunedWords.filter((word) => word.startsWith('-'));
const tunedEnvironment = Object.fromEntries(tunedWords.filter((word) => !word.startsWith('-')).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));
const requestsPerRun = Number(flags.requests);
const rounds = Math.max(1, Number(flags.rounds));
const warmup = Math.max(0, Number(flags.warmup));

interface RunResult {
  target: string;
  stream: boolean;
  concurrency: number;
  p50: number;
  p99: number;
  requestsPerSecond: number;
  cpuMsPerRequest: number | undefined;
  /** CPU ms per request of each round. */
  roundCpuMs: number[];
}

/** Latencies, busy time and CPU of one target, summed over the rounds of a cell. */
interface Tally {
  latencies: number[];
  elapsedMs: number;
  cpuMs: number;
  roundCpuMs: number[];
}

async function drive(target: Server, stream: boolean, concurrency: number, count: number, measureCpu: boolean, tally: Tally | undefined) {
  const pool = new Pool(target.url, { connections: concurrency, pipelining: 1 });
  const body = bodyFor(stream);
  const one = async () => {
    const started = performance.now();
    const response = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${target.name} answered ${response.statusCode} ${text.slice(0, 300)}`);
    return performance.now() - started;
  };
  const cpuBefore = measureCpu ? await cpuOf(target) : 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const latency = await one();
        tally?.latencies.push(latency);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const cpuAfter = measureCpu ? await cpuOf(target) : 0;
  await pool.close();
  if (tally) {
    tally.elapsedMs += elapsed;
    tally.cpuMs += cpuAfter - cpuBefore;
    tally.roundCpuMs.push((cpuAfter - cpuBefore) / count);
  }
}

function result(target: Server, stream: boolean, concurrency: number, tally: Tally, measureCpu: boolean): RunResult {
  const latencies = [...tally.latencies].sort((a, b) => a - b);
  return {
    target: target.name,
    stream,
    concurrency,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requestsPerSecond: (latencies.length / tally.elapsedMs) * 1000,
    cpuMsPerRequest: measureCpu ? tally.cpuMs / latencies.length : undefined,
    roundCpuMs: tally.roundCpuMs,
  };
}

/**
 * One cell (format, concurrency): every target warmed up, then measured in interleaved rounds, so load that
 * comes and goes on a shared machine falls on all of them alike instead of on whichever ran at that moment.
 */
async function cell(targets: { server: Server; measureCpu: boolean }[], stream: boolean, concurrency: number): Promise<RunResult[]> {
  const perRound = Math.ceil(requestsPerRun / rounds);
  // The warm-up runs in interleaved rounds too: a process left quiet for seconds (while the others warmed up one
  // after the other) then spent ~1.4-1.5x its CPU per request for the next 800 requests and more, the minimal
  // proxy as much as the gateway (16 s of quiet: 1.1 -> 1.3-1.6 ms; 3 s: no change), and that fell on whichever
  // target had waited longest.
  for (let warmed = 0; warmed < warmup; warmed += perRound) {
    for (const { server } of targets) await drive(server, stream, concurrency, Math.min(perRound, warmup - warmed), false, undefined);
  }
  const tallies = targets.map(() => ({ latencies: [] as number[], elapsedMs: 0, cpuMs: 0, roundCpuMs: [] as number[] }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, { server, measureCpu }] of targets.entries()) {
      await drive(server, stream, concurrency, perRound, measureCpu, tallies[index]);
    }
  }
  return targets.map(({ server, measureCpu }, index) => result(server, stream, concurrency, tallies[index] as Tally, measureCpu));
}

const upstream = await spawnServer('upstream', './servers/upstream.ts');
const minimal = await spawnServer('minimal-proxy', './servers/minimal-proxy.ts', { UPSTREAM: upstream.url });
// hermes-router as users run it (ledger, tool routing on), and two variants that isolate the ledger's and
// the routers' share: without the ledger, and with tool routing off (same upstream payload as the baselines).
const heap = productHeapFlags(process.env);
const gateway = await spawnServer('hermes-router', './servers/gateway.ts', { UPSTREAM: upstream.url, TOOL_ROUTING: 'off' }, heap);
const bare = await spawnServer('hermes-router-no-ledger', './servers/gateway.ts', { UPSTREAM: upstream.url, LEDGER: 'off', TOOL_ROUTING: 'off' }, heap);
const routed = await spawnServer('hermes-router-routing-on', './servers/gateway.ts', { UPSTREAM: upstream.url }, heap);
// --tuned: the same as `gateway`, with the given Node flags and environment.
const tuned =
  flags.tuned === undefined
    ? undefined
    : await spawnServer('hermes-router-tuned', './servers/gateway.ts', { UPSTREAM: upstream.url, TOOL_ROUTING: 'off', ...tunedEnvironment }, [
        ...productHeapFlags({ ...process.env, ...tunedEnvironment }, tunedFlags),
        ...tunedFlags,
      ]);
const rows: { stream: boolean; concurrency: number; direct: RunResult; minimal: RunResult; gateway: RunResult; bare: RunResult; routed: RunResult; tuned?: RunResult }[] = [];
try {
  for (const stream of [false, true]) {
    for (const concurrency of [1, 32]) {
      process.stderr.write(`measuring stream=${stream} concurrency=${concurrency}…\n`);
      const [direct, minimalResult, gatewayResult, bareResult, routedResult, tunedResult] = (await cell(
        [
          { server: { ...upstream, name: 'direct' }, measureCpu: false },
          { server: minimal, measureCpu: true },
          { server: gateway, measureCpu: true },
          { server: bare, measureCpu: true },
          { server: routed, measureCpu: true },
          ...(tuned ? [{ server: tuned, measureCpu: true }] : []),
        ],
        stream,
        concurrency,
      )) as [RunResult, RunResult, RunResult, RunResult, RunResult, RunResult | undefined];
      rows.push({ stream, concurrency, direct, minimal: minimalResult, gateway: gatewayResult, bare: bareResult, routed: routedResult, ...(tunedResult ? { tuned: tunedResult } : {}) });
    }
  }
} finally {
  for (const server of [upstream, minimal, gateway, bare, routed, ...(tuned ? [tuned] : [])]) server.child.kill();
}

/**
 * The median over the rounds of the gateway's CPU per request over the minimal proxy's in the same round. A
 * round is a few hundred ms, and another process's burst on the shared machine can triple one target's CPU per
 * request for one round; the mean over the rounds (cpu ×) takes that in, the median does not.
 */
function medianRoundRatio(target: RunResult, baseline: RunResult): number {
  const ratios = target.roundCpuMs.map((cpu, index) => cpu / (baseline.roundCpuMs[index] ?? Number.NaN)).sort((a, b) => a - b);
  const middle = ratios.length / 2;
  return ratios.length % 2 === 1 ? (ratios[Math.floor(middle)] ?? Number.NaN) : ((ratios[middle - 1] ?? Number.NaN) + (ratios[middle] ?? Number.NaN)) / 2;
}

const fixed = (value: number | undefined, digits = 2) => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits));
const table = rows.map((row) => ({
  mode: `${row.stream ? 'stream' : 'json'} c=${row.concurrency}`,
  direct_p50_ms: row.direct.p50,
  minimal_added_p50_ms: row.minimal.p50 - row.direct.p50,
  minimal_added_p99_ms: row.minimal.p99 - row.direct.p99,
  gateway_added_p50_ms: row.gateway.p50 - row.direct.p50,
  gateway_added_p99_ms: row.gateway.p99 - row.direct.p99,
  minimal_rps: row.minimal.requestsPerSecond,
  gateway_rps: row.gateway.requestsPerSecond,
  minimal_cpu_ms: row.minimal.cpuMsPerRequest,
  gateway_cpu_ms: row.gateway.cpuMsPerRequest,
  gateway_no_ledger_cpu_ms: row.bare.cpuMsPerRequest,
  gateway_routing_on_cpu_ms: row.routed.cpuMsPerRequest,
  gateway_routing_on_added_p50_ms: row.routed.p50 - row.direct.p50,
  cpu_ratio: (row.gateway.cpuMsPerRequest ?? 0) / (row.minimal.cpuMsPerRequest ?? 1),
  cpu_ratio_round_median: medianRoundRatio(row.gateway, row.minimal),
  tuned_cpu_ms: row.tuned?.cpuMsPerRequest,
  tuned_cpu_ratio: row.tuned ? (row.tuned.cpuMsPerRequest ?? 0) / (row.minimal.cpuMsPerRequest ?? 1) : undefined,
  tuned_added_p99_ms: row.tuned ? row.tuned.p99 - row.direct.p99 : undefined,
  ledger_cpu_share: (row.gateway.cpuMsPerRequest ?? 0) / (row.bare.cpuMsPerRequest ?? 1) - 1,
  added_p50_ratio: (row.gateway.p50 - row.direct.p50) / Math.max(0.001, row.minimal.p50 - row.direct.p50),
}));
const header = ['mode', 'direct p50', '+p50 min', '+p99 min', '+p50 hr', '+p99 hr', 'rps min', 'rps hr', 'cpu/req min', 'cpu/req hr', 'hr no ledger', 'hr routed', '+p50 routed', 'cpu ×', 'cpu × med', 'ledger +', '+p50 ×', ...(tuned ? ['cpu/req tuned', 'cpu × tuned', '+p99 tuned'] : [])];
const lines = table.map((row) => [
  row.mode,
  fixed(row.direct_p50_ms),
  fixed(row.minimal_added_p50_ms),
  fixed(row.minimal_added_p99_ms),
  fixed(row.gateway_added_p50_ms),
  fixed(row.gateway_added_p99_ms),
  fixed(row.minimal_rps, 0),
  fixed(row.gateway_rps, 0),
  fixed(row.minimal_cpu_ms, 3),
  fixed(row.gateway_cpu_ms, 3),
  fixed(row.gateway_no_ledger_cpu_ms, 3),
  fixed(row.gateway_routing_on_cpu_ms, 3),
  fixed(row.gateway_routing_on_added_p50_ms),
  fixed(row.cpu_ratio),
  fixed(row.cpu_ratio_round_median),
  `${fixed(row.ledger_cpu_share * 100, 1)}%`,
  fixed(row.added_p50_ratio),
  ...(tuned ? [fixed(row.tuned_cpu_ms, 3), fixed(row.tuned_cpu_ratio), fixed(row.tuned_added_p99_ms)] : []),
]);
const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => (line[index] ?? '').length)));
const format = (cells: string[]) => cells.map((cell, index) => cell.padStart(widths[index] ?? 0)).join('  ');
console.log(`${requestsPerRun} requests per cell in ${rounds} interleaved rounds after ${warmup} unmeasured, 70 KB Hermes-shaped body (33 tools); times in ms; min = minimal parse-and-forward proxy, hr = hermes-router with its ledger and tool routing off (same upstream payload); cpu × = hr's CPU per request over min's, "cpu × med" the median of that ratio over the rounds; "hr no ledger" without the ledger; "hr routed" as shipped (tool routing on)${tuned ? `; "tuned" as "hr" with ${flags.tuned}` : ''}`);
console.log(format(header));
for (const line of lines) console.log(format(line));
if (flags.json) console.log(JSON.stringify({ requests: requestsPerRun, rows: table }));
