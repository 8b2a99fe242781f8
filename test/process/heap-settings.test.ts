import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { applyHeapSettings, gatewayHeapSettings, heapFlags, startHeapEnvironment } from '../../src/cli/heap-settings.js';

/**
 * A child Node that applies `flags` the way the gateway does (after start, through v8.setFlagsFromString), then
 * allocates as a busy gateway does: a live set that grows, and garbage of which part survives a while. Prints the
 * young generation's size (new space: both semi-spaces) in MB.
 */
function newSpaceAfterChurn(flags: string[]): number {
  const script = `
    const v8 = require('node:v8');
    for (const flag of ${JSON.stringify(flags)}) v8.setFlagsFromString(flag);
    const live = [];
    const recent = [];
    for (let round = 0; round < 300000; round += 1) {
      const item = { round, values: new Array(20).fill(round), text: 'x'.repeat(40) + round };
      recent.push(item);
      if (recent.length > 3000) recent.shift();
      if (round % 10 === 0) live.push(item);
    }
    const space = v8.getHeapSpaceStatistics().find((entry) => entry.space_name === 'new_space');
    process.stdout.write(String(space.space_size / 1048576));`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  expect(child.status, child.stderr).toBe(0);
  return Number(child.stdout);
}

describe('the gateway heap settings', () => {
  it('keep the young generation at its starting size in this Node (a release that ignores them fails here)', () => {
    const defaults = newSpaceAfterChurn([]);
    const applied = newSpaceAfterChurn(heapFlags(gatewayHeapSettings));
    expect(defaults).toBeGreaterThanOrEqual(8);
    expect(applied).toBeLessThanOrEqual(4);
  });

  it('are applied with HERMES_ROUTER_NODE_HEAP=compact, unless the operator sized the heap on the command line', () => {
    const set = (env: NodeJS.ProcessEnv, execArgv: string[]) => {
      const flags: string[] = [];
      const outcome = applyHeapSettings(env, execArgv, gatewayHeapSettings, (flag) => flags.push(flag));
      return { outcome, flags };
    };
    const compact = { HERMES_ROUTER_NODE_HEAP: 'compact' };
    expect(set(compact, [])).toEqual({ outcome: { applied: true, flags: heapFlags(gatewayHeapSettings) }, flags: heapFlags(gatewayHeapSettings) });
    expect(set({}, []).flags).toEqual([]);
    expect(set({ HERMES_ROUTER_NODE_HEAP: 'default' }, []).flags).toEqual([]);
    expect(set(compact, ['--max-old-space-size=512']).flags).toEqual([]);
    expect(set({ ...compact, NODE_OPTIONS: '--enable-source-maps --max-semi-space-size=8' }, []).outcome).toEqual({
      applied: false,
      reason: "the heap was sized on Node's command line (--max-semi-space-size=8)",
    });
    expect(set({ ...compact, NODE_OPTIONS: '--enable-source-maps' }, ['--import', 'tsx']).outcome.applied).toBe(true);
  });

  it('are what start runs with unless HERMES_ROUTER_NODE_HEAP says otherwise', () => {
    const applied = (env: NodeJS.ProcessEnv) => applyHeapSettings(startHeapEnvironment(env), [], gatewayHeapSettings, () => {}).applied;
    expect(applied({})).toBe(true);
    expect(applied({ HERMES_ROUTER_NODE_HEAP: 'compact' })).toBe(true);
    expect(applied({ HERMES_ROUTER_NODE_HEAP: 'default' })).toBe(false);
    expect(applied({ NODE_OPTIONS: '--max-old-space-size=512' })).toBe(false);
  });
});
