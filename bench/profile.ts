/**
 * Where a proxy's CPU goes per request, in the steady state: warms a bench server up, profiles a window of
 * requests with the V8 sampling profiler, and prints self time per request by area (our modules, undici,
 * node internals, …) and the hottest functions. For finding what to optimise; `bench/overhead.ts` judges.
 *
 *   node --import tsx bench/profile.ts [--target gateway|minimal] [--stream] [--concurrency 1] [--requests 800]
 *        [--routing on|off] [--ledger on|off] [--save FILE.cpuprofile] [--heap]
 *
 * --heap samples allocations instead of CPU (every object, also those the next scavenge collects: what a request
 * allocates is what the collector is paid for) and prints bytes allocated per request by area and function.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { ask, cpuOf, hermesBody, productHeapFlags, spawnServer } from './support.js';

const { values: flags } = parseArgs({
  options: {
    target: { type: 'string', default: 'gateway' },
    stream: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '1' },
    requests: { type: 'string', default: '800' },
    routing: { type: 'string', default: 'off' },
    ledger: { type: 'string', default: 'on' },
    save: { type: 'string' },
    top: { type: 'string', default: '30' },
    heap: { type: 'boolean', default: false },
  },
});

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const requests = Number(flags.requests);
const concurrency = Number(flags.concurrency);
const upstream = await spawnServer('upstream', './servers/upstream.ts');
const script = flags.target === 'minimal' ? './servers/minimal-proxy.ts' : './servers/gateway.ts';
const server = await spawnServer(
  flags.target ?? 'gateway',
  script,
  { UPSTREAM: upstream.url, TOOL_ROUTING: flags.routing ?? 'off', LEDGER: flags.ledger ?? 'on' },
  flags.target === 'minimal' ? [] : productHeapFlags(process.env),
);
const pool = new Pool(server.url, { connections: concurrency });
const body = hermesBody(flags.stream ?? false);
const drive = async (count: number) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const response = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await response.body.text();
        if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}`);
      }
    }),
  );
};

const heap = flags.heap ?? false;
const path = flags.save ?? join(mkdtempSync(join(tmpdir(), 'hermes-router-profile-')), heap ? 'window.heapprofile' : 'window.cpuprofile');
try {
  await drive(Math.max(300, requests / 2));
  await ask(server, heap ? 'heap-start' : 'profile-start', heap ? 'sampling' : 'profiling');
  const before = await cpuOf(server);
  await drive(requests);
  const after = await cpuOf(server);
  await ask(server, heap ? { heapStop: path } : { profileStop: path }, heap ? 'sampled' : 'profiled');
  console.log(`${flags.target} stream=${flags.stream} c=${concurrency}: ${((after - before) / requests).toFixed(3)} ms CPU/request (profiler on; it adds a little)`);
} finally {
  await pool.close();
  server.child.kill();
  upstream.child.kill();
}

if (heap) {
  const head = (JSON.parse(readFileSync(path, 'utf8')) as { head: HeapNode }).head;
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const visit = (node: HeapNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = area(url, functionName);
    areas.set(where, (areas.get(where) ?? 0) + node.selfSize);
    const label = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(src|node_modules|bench)\//, '$1/')}:${lineNumber + 1}`;
    functions.set(label, (functions.get(label) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(head);
  const total = [...areas.values()].reduce((sum, bytes) => sum + bytes, 0);
  console.log(`allocated ${(total / requests / 1024).toFixed(1)} KB/request (sampled; profile saved: ${path})`);
  const print = (title: string, entries: Map<string, number>, limit: number) => {
    console.log(`\n${title} (KB allocated per request)`);
    for (const [name, bytes] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
      console.log(`${(bytes / requests / 1024).toFixed(2).padStart(8)}  ${name}`);
    }
  };
  print('by area', areas, 25);
  print('by function', functions, Number(flags.top));
  process.exit(0);
}

const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMs = new Map<number, number>();
profile.samples.forEach((id, index) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));

function area(url: string, name: string): string {
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') return name;
  if (url === '') return '(native)';
  const ours = /\/(src|bench)\/(.+)$/.exec(url);
  if (ours && !url.includes('node_modules')) return `${ours[1]}/${(ours[2] ?? '').split('/').slice(0, 2).join('/')}`;
  const module = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1] ?? url;
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  return url;
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = area(url, functionName);
  areas.set(where, (areas.get(where) ?? 0) + ms);
  const label = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(src|node_modules|bench)\//, '$1/')}:${lineNumber + 1}`;
  functions.set(label, (functions.get(label) ?? 0) + ms);
}
const busy = [...areas].filter(([name]) => name !== '(idle)').reduce((total, [, ms]) => total + ms, 0);
console.log(`busy ${(busy / requests).toFixed(3)} ms/request (profile saved: ${path})`);
const print = (title: string, entries: Map<string, number>, limit: number) => {
  console.log(`\n${title} (µs per request)`);
  for (const [name, ms] of [...entries].filter(([label]) => !label.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    console.log(`${((ms / requests) * 1000).toFixed(1).padStart(8)}  ${name}`);
  }
};
print('by area', areas, 25);
print('hottest functions', functions, Number(flags.top));
