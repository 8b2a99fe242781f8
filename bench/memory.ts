/**
 * Memory benchmark. Starts hermes-router from the built CLI as `bin/hermes-router.js start` runs it (the bundle in
 * dist/bundle/, SQLite ledger, tool routing on, default Node flags unless told otherwise) against a local fake
 * upstream, and prints its RSS: idle, then with 1,000 / 5,000 / 10,000 live Hermes-shaped sessions (first turns of
 * distinct conversations: the 70 KB Hermes body with 33 tools, each with its own first user message): 1.5 s after
 * each burst (with V8's young generation and old generation then: committed, and the old generation's objects), at rest (`--rest-ms` after it, 15 s unless told; a quiet `start` has collected by then,
 * src/cli/idle-collection.ts), and after a full GC with the heap that is then in use. Also the time from process start to the first answered
 * request, the gateway's CPU per request over each burst (all its threads, so the collector's work counts), and, measured in the same run for scale, the RSS of a plain idle `node -e 'setInterval(()=>{},1e3)'`.
 *
 *   npm run bench:memory [-- --sessions 1000,5000,10000 --no-build --json]
 *   npm run bench:memory -- --env=HERMES_ROUTER_NODE_HEAP=compact
 *   npm run bench:memory -- --node-flags=--max-semi-space-size=2 --env=MALLOC_MMAP_THRESHOLD_=65536
 *   npm run bench:memory -- --sessions 0 --root /work/wt/start      (another checkout's build: a same-run baseline)
 *   npm run bench:memory -- --sessions 0 --first-at-once            (the first request as soon as it listens)
 *
 * --node-flags and --env (NAME=VALUE, comma-separated) run the gateway with runtime settings of your own;
 * HERMES_ROUTER_NODE_HEAP=compact is the heap sizing start can apply to itself (src/cli/heap-settings.ts).
 * The first request goes after the idle reading (1.5 s, then `--rest-ms`), so what `start` does right after it
 * listens (the classifier's warm-up, one collection) is not in its time; --first-at-once sends it as soon as the
 * gateway listens instead (the idle row is then read after it).
 */
import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { type BenchServer, ask, cpuOf, spawnServer } from './support.js';

const { values: flags } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000,5000,10000' },
    'no-build': { type: 'boolean', default: false },
    'node-flags': { type: 'string', default: '' },
    env: { type: 'string', default: '' },
    root: { type: 'string', default: '' },
    concurrency: { type: 'string', default: '16' },
    'rest-ms': { type: 'string', default: '15000' },
    json: { type: 'boolean', default: false },
    'first-at-once': { type: 'boolean', default: false },
  },
});
const checkpoints = flags.sessions.split(',').map(Number).filter((count) => count > 0).sort((left, right) => left - right);
const concurrency = Math.max(1, Number(flags.concurrency));
const restMs = Math.max(1500, Number(flags['rest-ms']));
const repositoryRoot = new URL('../', import.meta.url).pathname;

if (!flags['no-build'] && !flags.root) {
  process.stderr.write('building dist/ (npm run build)…\n');
  execFileSync(process.execPath, [`${repositoryRoot}node_modules/typescript/bin/tsc`, '-p', `${repositoryRoot}tsconfig.build.json`], { stdio: 'inherit' });
  execFileSync(process.execPath, [`${repositoryRoot}scripts/build/bundle-cli.mjs`], { stdio: 'inherit', cwd: repositoryRoot });
}

/** RSS of a process, page-exact from smaps_rollup (Linux), in bytes. */
function residentBytes(pid: number): number {
  const path = `/proc/${pid}/smaps_rollup`;
  if (!existsSync(path)) return Number.NaN;
  return Number(/^Rss:\s+(\d+)/m.exec(readFileSync(path, 'utf8'))?.[1] ?? Number.NaN) * 1024;
}

/** The yardstick, in this run: an idle `node` that has loaded nothing, measured as long after its start as the gateway. */
async function plainNodeRss(): Promise<number> {
  const plain = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const rss = residentBytes(plain.pid ?? 0);
  plain.kill();
  return rss;
}
const plainRss = await plainNodeRss();

const hermes = JSON.parse(readFileSync(new URL('../test/fixtures/hermes/turn-1.json', import.meta.url), 'utf8')) as { messages: { role: string; content: string }[] };
const tools = (JSON.parse(readFileSync(new URL('../test/fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as Record<string, unknown>[]).map(
  ({ toolset: _toolset, ...tool }) => tool,
);

/** The first turn of conversation `index`: Hermes's system prompt and tools, a first user message of its own. */
function sessionBody(index: number): string {
  const messages = hermes.messages.map((message) => (message.role === 'user' ? { ...message, content: `${message.content} (conversation ${index})` } : message));
  return JSON.stringify({ ...hermes, messages, tools, model: 'bench-model', stream: false, stream_options: undefined });
}

interface MemoryUsage {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Linux only: RSS in anonymous memory (V8 heap, malloc) and in mapped files (code, SQLite). */
  rssAnon: number;
  rssFile: number;
  /** V8's young generation (both semi-spaces) and old generation as committed, and the old generation's objects. */
  youngCommitted: number;
  oldCommitted: number;
  oldUsed: number;
}

const megabytes = (bytes: number) => bytes / 1024 / 1024;
const memoryOf = (server: BenchServer, gc: boolean) => ask<MemoryUsage>(server, { memory: { gc } }, 'usage');

const upstream = await spawnServer('upstream', './servers/upstream.ts');
const startedAt = performance.now();
const nodeFlags = flags['node-flags'].split(' ').filter((flag) => flag.length > 0);
const serviceEnvironment = Object.fromEntries(
  flags.env
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const child = fork(new URL('./servers/gateway-built.mjs', import.meta.url).pathname, [], {
  execArgv: nodeFlags,
  env: { ...process.env, ...serviceEnvironment, UPSTREAM: upstream.url, ...(flags.root ? { HERMES_BENCH_ROOT: flags.root } : {}) },
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const { port, bannerCpuMs } = await new Promise<{ port: number; bannerCpuMs: number }>((resolve, reject) => {
  child.once('message', (message) => resolve(message as { port: number; bannerCpuMs: number }));
  child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
});
const gateway: BenchServer = { name: 'hermes-router', child, url: `http://127.0.0.1:${port}` };
const listeningMs = performance.now() - startedAt;
// CPU time as well as wall time: on a shared machine the wall time mostly measures the other processes. Read
// after the port arrived, so it includes what `start` ran right after its banner; `bannerCpuMs` is the CPU time
// at the banner itself.
const listeningCpuMs = await cpuOf(gateway);
const pool = new Pool(gateway.url, { connections: concurrency });

async function send(index: number): Promise<void> {
  const response = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body: sessionBody(index) });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`the gateway answered ${response.statusCode}`);
}

interface Row {
  state: string;
  rssMb: number;
  /** RSS `--rest-ms` after the burst, with no request since (what a quiet gateway holds; start collects when quiet). */
  rssAtRestMb: number;
  /** At the RSS reading 1.5 s after the burst: the young generation committed, the old generation committed / in use. */
  youngMb: number;
  oldCommittedMb: number;
  oldUsedMb: number;
  rssAfterGcMb: number;
  heapAfterGcMb: number;
  heapTotalAfterGcMb: number;
  externalAfterGcMb: number;
  anonymousAfterGcMb: number;
  filesAfterGcMb: number;
  /** The gateway's CPU time (all its threads: the collector's too) over the burst that led here, per request. */
  cpuMsPerRequest: number;
}
const rows: Row[] = [];
async function measure(state: string, cpuMsPerRequest = Number.NaN): Promise<void> {
  // A moment for timers (ledger flush) and sockets to settle, as a gateway between bursts would.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const before = await memoryOf(gateway, false);
  // At rest: `start` collects garbage once the gateway has been quiet for 5 s (src/cli/idle-collection.ts).
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, restMs - 1500)));
  const atRest = await memoryOf(gateway, false);
  await memoryOf(gateway, true);
  // V8 returns the pages a full collection emptied from a background thread: measured at once, the RSS after a
  // GC swung by ~30 MB from run to run (191 vs 163 MB at 10,000 sessions, the same 163 MB half a second later).
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await memoryOf(gateway, false);
  rows.push({
    state,
    cpuMsPerRequest,
    rssMb: megabytes(before.rss),
    rssAtRestMb: megabytes(atRest.rss),
    youngMb: megabytes(before.youngCommitted),
    oldCommittedMb: megabytes(before.oldCommitted),
    oldUsedMb: megabytes(before.oldUsed),
    rssAfterGcMb: megabytes(after.rss),
    heapAfterGcMb: megabytes(after.heapUsed),
    heapTotalAfterGcMb: megabytes(after.heapTotal),
    externalAfterGcMb: megabytes(after.external),
    anonymousAfterGcMb: megabytes(after.rssAnon),
    filesAfterGcMb: megabytes(after.rssFile),
  });
}

let firstAnswerMs = Number.NaN;
let firstAnswerCpuMs = Number.NaN;
let firstRequestCpuMs = Number.NaN;
try {
  if (!flags['first-at-once']) await measure('idle (started, no request yet)');
  const cpuBeforeFirst = await cpuOf(gateway);
  const firstStarted = performance.now();
  await send(0);
  // Listening plus the request's own time; at once, all the time from the spawn (the CPU readings between are in it).
  firstAnswerMs = flags['first-at-once'] ? performance.now() - startedAt : listeningMs + (performance.now() - firstStarted);
  firstAnswerCpuMs = await cpuOf(gateway);
  firstRequestCpuMs = firstAnswerCpuMs - cpuBeforeFirst;
  if (flags['first-at-once']) await measure('idle (after the first request)');
  let sent = 1;
  for (const target of checkpoints) {
    process.stderr.write(`sessions → ${target}…\n`);
    const burstStart = sent;
    const cpuBeforeBurst = await cpuOf(gateway);
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (sent < target) {
          const index = sent;
          sent += 1;
          await send(index);
        }
      }),
    );
    const burstCpuMs = (await cpuOf(gateway)) - cpuBeforeBurst;
    await measure(`${target.toLocaleString('en-US')} live sessions`, burstCpuMs / Math.max(1, sent - burstStart));
  }
} finally {
  await pool.close();
  // Asked over IPC: the gateway handles SIGTERM by finishing in-flight requests and then stays up (its IPC
  // channel keeps it alive), which left this script waiting for it after printing.
  child.send('exit');
  upstream.child.send('exit');
}

const fixed = (value: number) => value.toFixed(1);
const header = ['state', 'CPU/request ms', 'RSS MB', 'young / old / old used MB', `RSS at ${(restMs / 1000).toFixed(0)} s MB`, 'RSS after GC MB', 'heap used after GC MB', 'heap total MB', 'external MB', 'anon MB', 'files MB'];
const lines = rows.map((row) => [row.state, Number.isNaN(row.cpuMsPerRequest) ? '-' : row.cpuMsPerRequest.toFixed(2), fixed(row.rssMb), `${fixed(row.youngMb)} / ${fixed(row.oldCommittedMb)} / ${fixed(row.oldUsedMb)}`, fixed(row.rssAtRestMb), fixed(row.rssAfterGcMb), fixed(row.heapAfterGcMb), fixed(row.heapTotalAfterGcMb), fixed(row.externalAfterGcMb), fixed(row.anonymousAfterGcMb), fixed(row.filesAfterGcMb)]);
const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => (line[index] ?? '').length)));
const format = (cells: string[]) => cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join('  ');
const settings = [...nodeFlags, ...Object.entries(serviceEnvironment).map(([name, value]) => `${name}=${value}`)];
console.log(`hermes-router start from ${flags.root ? `${flags.root}/` : ''}dist/, node ${process.version} ${settings.length ? settings.join(' ') : '(default flags)'}; sessions are Hermes first turns (70 KB, 33 tools), tool routing on`);
console.log(`process start → listening: ${listeningMs.toFixed(0)} ms; → first answered request: ${firstAnswerMs.toFixed(0)} ms (gateway CPU at the banner ${bannerCpuMs.toFixed(0)} ms, after it ${listeningCpuMs.toFixed(0)} / ${firstAnswerCpuMs.toFixed(0)} ms, the first request alone ${firstRequestCpuMs.toFixed(0)} ms; load average ${loadavg()[0]!.toFixed(2)})`);
const idleRss = rows[0]?.rssMb ?? Number.NaN;
console.log(`plain idle \`node -e\` in this run: ${megabytes(plainRss).toFixed(1)} MB RSS; idle gateway ${idleRss.toFixed(1)} MB = ${(idleRss / megabytes(plainRss)).toFixed(2)} x, ${(idleRss - megabytes(plainRss)).toFixed(1)} MB more`);
console.log(format(header));
for (const line of lines) console.log(format(line));
if (flags.json) console.log(JSON.stringify({ settings, plainNodeRssMb: megabytes(plainRss), listeningMs, firstAnswerMs, bannerCpuMs, listeningCpuMs, firstAnswerCpuMs, firstRequestCpuMs, rows }));
