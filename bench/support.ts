// What the bench drivers share: forking a bench server, asking it for its CPU time, and the Hermes-shaped body.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { compactHeapValue, gatewayHeapSettings, heapSettingsVariable, startHeapEnvironment } from '../src/cli/heap-settings.js';

export interface BenchServer {
  name: string;
  child: ChildProcess;
  url: string;
}

export async function spawnServer(name: string, script: string, env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<BenchServer> {
  const child = fork(new URL(script, import.meta.url).pathname, [], {
    execArgv: [...nodeFlags, '--import', 'tsx'],
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
 * young generation at the size it has when it applies its compact settings (src/cli/heap-settings.ts): the built
 * CLI holds 2 x 2 MB under the bench's load (bench/memory.ts's youngCommitted: 4.0 MB). Under tsx the loader's own
 * work has grown it to 2 x 8 MB or 2 x 16 MB by then, one start or the other, and with 16 MB semi-spaces and the
 * old generation's 50 % growth a full collection ran every ~55 requests at concurrency 1 (--trace-gc): 1.6 instead
 * of 1.1 ms CPU per request, so one run of the bench measured another heap than the next. On Node's command line
 * V8 sizes the heap before tsx loads. Nothing when the environment opts out of the compact heap
 * (HERMES_ROUTER_NODE_HEAP=default) or `nodeFlags` size the heap themselves.
 */
export function productHeapFlags(env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): string[] {
  if (startHeapEnvironment(env)[heapSettingsVariable] !== compactHeapValue) return [];
  if (nodeFlags.some((flag) => /semi-space|heap-growing|old-space|young-generation/.test(flag))) return [];
  return ['--max-semi-space-size=2', `--heap-growing-percent=${gatewayHeapSettings.oldGenerationGrowingPercent}`];
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
