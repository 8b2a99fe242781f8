/**
 * Load test (loopback only, bounded in count and time): throughput and latency of one hermes-router instance,
 * and of two instances behind a plain round-robin balancer, against the local fake upstream, with the
 * 70 KB Hermes-shaped body, streaming and not.
 *
 *   npx tsx bench/load.ts [--requests 2000] [--concurrency 32] [--json]
 *
 * On one two-core machine two instances compete with the load generator and the upstream for the same cores,
 * so the second instance shows the cost of the extra hop more than extra capacity; read the ratios.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values: flags } = parseArgs({
  options: { requests: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '32' }, json: { type: 'boolean', default: false } },
});
const total = Number(flags.requests);
const concurrency = Number(flags.concurrency);
const deadlineMs = 120_000;

async function spawn(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(new URL(script, import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

const hermes = JSON.parse(readFileSync(new URL('../test/fixtures/hermes/turn-1.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const tools = (JSON.parse(readFileSync(new URL('../test/fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as Record<string, unknown>[]).map(
  ({ toolset: _toolset, ...tool }) => tool,
);

async function drive(url: string, stream: boolean) {
  const pool = new Pool(url, { connections: concurrency });
  const body = JSON.stringify({ ...hermes, model: 'bench-model', tools, stream, ...(stream ? {} : { stream_options: undefined }) });
  const latencies: number[] = [];
  let failures = 0;
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < total && performance.now() - started < deadlineMs) {
        issued += 1;
        const begin = performance.now();
        try {
          const response = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body });
          await response.body.text();
          if (response.statusCode === 200) latencies.push(performance.now() - begin);
          else failures += 1;
        } catch {
          failures += 1;
        }
      }
    }),
  );
  const elapsed = performance.now() - started;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) => latencies[Math.min(latencies.length - 1, Math.floor(fraction * latencies.length))] ?? Number.NaN;
  return { requests: latencies.length, failures, rps: (latencies.length / elapsed) * 1000, p50: at(0.5), p99: at(0.99) };
}

const upstream = await spawn('./servers/upstream.ts', {});
const first = await spawn('./servers/gateway.ts', { UPSTREAM: upstream.url });
const second = await spawn('./servers/gateway.ts', { UPSTREAM: upstream.url });
const balancer = await spawn('./servers/round-robin.ts', { TARGETS: `${first.url},${second.url}` });
const rows: Record<string, unknown>[] = [];
try {
  for (const stream of [false, true]) {
    for (const [setup, url] of [
      ['one instance', first.url],
      ['two instances, round-robin', balancer.url],
    ] as const) {
      process.stderr.write(`load: ${setup}, ${stream ? 'streaming' : 'json'}, ${total} requests at concurrency ${concurrency}…\n`);
      rows.push({ setup, mode: stream ? 'stream' : 'json', ...(await drive(url, stream)) });
    }
  }
} finally {
  for (const server of [balancer, first, second]) server.child.send('exit');
  upstream.child.kill();
}
console.log('setup                        mode     requests  failures      rps    p50 ms    p99 ms');
for (const row of rows) {
  const format = (value: unknown, digits = 1) => (typeof value === 'number' ? value.toFixed(digits) : String(value));
  console.log(
    `${String(row.setup).padEnd(28)} ${String(row.mode).padEnd(7)} ${format(row.requests, 0).padStart(9)} ${format(row.failures, 0).padStart(9)} ${format(row.rps, 0).padStart(8)} ${format(row.p50).padStart(9)} ${format(row.p99).padStart(9)}`,
  );
}
if (flags.json) console.log(JSON.stringify({ requests: total, concurrency, rows }));
process.exit(0);
