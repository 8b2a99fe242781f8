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
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { hermesBody, percentile, spawnServer } from './support.js';

const { values: flags } = parseArgs({
  options: { requests: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '32' }, json: { type: 'boolean', default: false } },
});
const total = Number(flags.requests);
const concurrency = Number(flags.concurrency);
const deadlineMs = 120_000;

async function drive(url: string, stream: boolean) {
  const pool = new Pool(url, { connections: concurrency });
  const body = hermesBody(stream);
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
  return { requests: latencies.length, failures, rps: (latencies.length / elapsed) * 1000, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

const upstream = await spawnServer('upstream', './servers/upstream.ts');
const first = await spawnServer('first', './servers/gateway.ts', { UPSTREAM: upstream.url });
const second = await spawnServer('second', './servers/gateway.ts', { UPSTREAM: upstream.url });
const balancer = await spawnServer('balancer', './servers/round-robin.ts', { TARGETS: `${first.url},${second.url}` });
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
