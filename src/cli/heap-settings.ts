import { setFlagsFromString } from 'node:v8';
import type { YoungGenerationLimits } from './young-generation-limit.js';

/**
 * Compact heap settings a gateway process (`hermes-router start`) applies to itself when it starts, unless
 * HERMES_ROUTER_NODE_HEAP says otherwise (no Node flags to pass, no wrapper or second process): a young generation
 * that stays at the size it starts with (1 MB per semi-space on 64-bit Node 20, instead of growing to 16 MB) while
 * the gateway starts and while few requests run, growing to at most 4 MB once it listens and many requests are in
 * flight (`youngGeneration`, young-generation-limit.ts), and an old generation that may grow by half its live size
 * between full collections (instead of V8's dynamic factor, up to 4x).
 *
 * Why: whatever a request holds while its provider answers outlives a young generation and is promoted, and with
 * Node's sizing the old generation may grow to several times its live size before a full collection, while the
 * 2 x 16 MB young generation stays committed: 10,000 live Hermes sessions hold ~170 MB RSS under load with
 * Node's sizing, ~136-138 MB with these settings, while the sessions themselves are ~12 MB of heap
 * (bench/memory.ts). They were opt-in while a request held its own parsed 80 KB body: a small heap then cost
 * ~1.4-1.5x the CPU per request. Since the tool definitions and system prompt are shared between requests
 * (`wire/shared-members.ts`), a request holds ~25 KB of its own and they cost about what Node's sizing does,
 * 0.6-1.0x the minimal proxy's CPU per request (bench/overhead.ts). docs/deployment.md, "Under load, sharing what
 * agents repeat", has the tables.
 *
 * Both are V8 flags that V8 reads each time it decides, so `v8.setFlagsFromString` changes them in a running
 * process: `--semi-space-growth-factor=1` stops the young generation growing (on V8's command line a factor
 * below 2 is raised to 2 when the heap is created; set afterwards it is used as it is), and
 * `--heap-growing-percent` replaces the old generation's growing factor at each full collection. The flags that
 * would say the same on Node's command line (`--max-semi-space-size`, `--max-old-space-size`) are read only when
 * the heap is created. `test/process/heap-settings.test.ts` checks the effect in a child process, so a Node
 * release that stops reading them fails there instead of quietly using more memory.
 *
 * Never applied when the operator sized the heap on Node's command line or in NODE_OPTIONS: their choice stands.
 */
export interface HeapSettings {
  /** The young generation keeps the size it starts with (until the gateway listens: `youngGeneration`). */
  fixedYoungGeneration: boolean;
  /** The old generation may grow by this percentage of its live size before the next full collection. */
  oldGenerationGrowingPercent: number;
  /**
   * Once the gateway listens: how far the young generation may grow, and from how many requests in flight on.
   * 32 streamed requests in flight held at 2 MB per semi-space spent ~20 % of their CPU in collections
   * (young-generation-limit.ts); one request at a time does not, and a quiet gateway keeps the small size.
   */
  youngGeneration: YoungGenerationLimits;
}

export const gatewayHeapSettings: HeapSettings = {
  fixedYoungGeneration: true,
  oldGenerationGrowingPercent: 50,
  youngGeneration: { semiSpaceLimitMegabytes: 4, minimumInFlight: 8 },
};

/** Node/V8 options by which the operator sized the heap: their choice stands. */
const operatorHeapOption = /^--(max-semi-space-size|min-semi-space-size|semi-space-growth-factor|heap-growing-percent|max-old-space-size|max-young-generation-size)\b/;

export type HeapSettingsOutcome = { applied: true; flags: string[] } | { applied: false; reason: string };

/** The environment variable that opts in, and the value that does. */
export const heapSettingsVariable = 'HERMES_ROUTER_NODE_HEAP';
export const compactHeapValue = 'compact';

/** The V8 flags that say `settings`. */
export function heapFlags(settings: HeapSettings): string[] {
  return [
    ...(settings.fixedYoungGeneration ? ['--semi-space-growth-factor=1'] : []),
    `--heap-growing-percent=${Math.max(1, Math.round(settings.oldGenerationGrowingPercent))}`,
  ];
}

let appliedToThisProcess = false;

/** Whether this process runs with the compact settings (then start-heap.ts leaves the young generation alone). */
export function compactHeapApplied(): boolean {
  return appliedToThisProcess;
}

/** The environment `start` decides its heap by: the compact settings unless HERMES_ROUTER_NODE_HEAP is set (`default`: Node's own sizing). */
export function startHeapEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env[heapSettingsVariable] === undefined ? { ...env, [heapSettingsVariable]: compactHeapValue } : env;
}

/** Applies `settings` to this process's V8 when HERMES_ROUTER_NODE_HEAP=compact, unless the heap was sized on Node's command line. */
export function applyHeapSettings(
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[],
  settings: HeapSettings = gatewayHeapSettings,
  setFlags: (flag: string) => void = setFlagsFromString,
): HeapSettingsOutcome {
  if (env[heapSettingsVariable] !== compactHeapValue) return { applied: false, reason: `${heapSettingsVariable} is not ${compactHeapValue}` };
  const operatorFlag = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].find((option) => operatorHeapOption.test(option));
  if (operatorFlag !== undefined) return { applied: false, reason: `the heap was sized on Node's command line (${operatorFlag})` };
  const flags = heapFlags(settings);
  for (const flag of flags) setFlags(flag);
  if (setFlags === setFlagsFromString) appliedToThisProcess = true;
  return { applied: true, flags };
}
