// What the bench drivers share: forking a bench server, asking it for its CPU time, and the Hermes-shaped body.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { compactHeapValue, heapSettingsVariable, startHeapEnvironment } from '../src/cli/heap-settings.js';

export interface BenchServer {
  name: string;
  child: ChildProcess;
  url: string;
}

export async function spawnServer(name: string, script: string, env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<BenchServer> {
  const child = fork(new URL(script, import.meta.url).pathname, [], {
    // tsx first: registering its loader starts a worker thread, and V8 raises a semi-space growth factor below 2
    // back to 2 for the whole process when it creates the worker's heap, undoing what a flag module before it set.
    execArgv: ['--import', 'tsx', ...nodeFlags],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return { name, child, url: `http://127.0.0.1:${port}` };
}

/**
 * Node flags that give a bench gateway, run under tsx, the heap `hermes-router start` runs with. `start` holds the
 * young generation at its starting size (1 MB per semi-space) while it loads, and lets it grow to
 * `gatewayHeapSettings.youngGeneration`'s limit once it listens and many requests are in flight
 * (src/cli/young-generation-limit.ts, which bench/servers/gateway.ts runs too). Under tsx the loader's own work
 * grew it to 2 x 8 MB or 2 x 16 MB before the gateway's settings applied, one start or the other, and with 16 MB
 * semi-spaces and the old generation's 50 % growth a full collection ran every ~55 requests at concurrency 1
 * (--trace-gc): 1.6 instead of 1.1 ms CPU per request, so one run of the bench measured another heap than the
 * next. So the growth is held right after tsx has registered, before the gateway's modules load
 * (servers/hold-young-generation.mjs; the young generation is then at 2 x 2 MB, as the built CLI's under load was
 * before its limit), and the gateway's own settings then apply as in the product. Nothing when the environment opts out of the compact heap
 * (HERMES_ROUTER_NODE_HEAP=default) or `nodeFlags` size the heap themselves.
 */
export function productHeapFlags(env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): string[] {
  if (startHeapEnvironment(env)[heapSettingsVariable] !== compactHeapValue) return [];
  if (nodeFlags.some((flag) => /semi-space|heap-growing|old-space|young-generation/.test(flag))) return [];
  return ['--import', new URL('./servers/hold-young-generation.mjs', import.meta.url).href];
}

/** Sends `message` and resolves with the first answer that has `field`. */
export function ask<T>(server: BenchServer, message: unknown, field: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (answer: unknown) => {
      if (typeof answer === 'object' && answer !== null && field in answer) {
        server.child.off('message', listener);
        resolve((answer as Record<string, T>)[field] as T);
      }
    };
    server.child.on('message', listener);
    server.child.send(message as string);
  });
}

/** The server process's user + system CPU time so far, in ms. */
export async function cpuOf(server: BenchServer): Promise<number> {
  const cpu = await ask<NodeJS.CpuUsage>(server, 'cpu', 'cpu');
  return (cpu.user + cpu.system) / 1000;
}

const hermes = JSON.parse(readFileSync(new URL('../test/fixtures/hermes/turn-1.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const tools = (JSON.parse(readFileSync(new URL('../test/fixtures/hermes/tools.cli.json', import.meta.url), 'utf8')) as Record<string, unknown>[]).map(
  ({ toolset: _toolset, ...tool }) => tool,
);

/** A Hermes turn-1 request (long system prompt, 33 tools, about 70 KB). */
export function hermesBody(stream: boolean): string {
  const body: Record<string, unknown> = { ...hermes, model: 'bench-model', tools, stream };
  if (!stream) delete body.stream_options;
  return JSON.stringify(body);
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}
