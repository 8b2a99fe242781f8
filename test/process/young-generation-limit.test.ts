import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the young generation limit in this Node', () => {
  it('lets the young generation grow under load to the limit and no further (a release that ignores the factor fails here)', () => {
    // A child with the compact settings, then the limit with 32 requests "in flight", allocating as a busy gateway
    // does (a live set that grows, garbage of which part survives a while), a turn of the event loop at a time.
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { applyHeapSettings, gatewayHeapSettings } from ${JSON.stringify(new URL('../../src/cli/heap-settings.ts', import.meta.url).href)};
      import { growYoungGenerationUnderLoad } from ${JSON.stringify(new URL('../../src/cli/young-generation-limit.ts', import.meta.url).href)};
      applyHeapSettings({ HERMES_ROUTER_NODE_HEAP: 'compact' }, []);
      const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 1048576;
      const live = [];
      const recent = [];
      let round = 0;
      const churn = (rounds) => new Promise((resolve) => {
        const step = () => {
          for (let index = 0; index < 1000; index += 1, round += 1) {
            const item = { round, values: new Array(20).fill(round), text: 'x'.repeat(40) + round };
            recent.push(item);
            if (recent.length > 3000) recent.shift();
            if (round % 10 === 0) live.push(item);
          }
          if (round < rounds) setImmediate(step); else resolve();
        };
        step();
      });
      const activity = { size: 1 };
      const limit = growYoungGenerationUnderLoad(activity, gatewayHeapSettings.youngGeneration);
      await churn(200000);
      const few = newSpace();
      activity.size = 32;
      await churn(600000);
      limit.stop();
      process.stdout.write(JSON.stringify({ few, many: newSpace(), limit: gatewayHeapSettings.youngGeneration.semiSpaceLimitMegabytes }));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const { few, many, limit } = JSON.parse(child.stdout) as { few: number; many: number; limit: number };
    // new_space counts both semi-spaces: held at 1-2 MB each with one request in flight, at the limit with 32.
    expect(few).toBeLessThanOrEqual(4);
    expect(limit).toBeGreaterThan(2);
    expect(many).toBe(2 * limit);
  });
});
