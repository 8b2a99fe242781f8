'use strict';
// What the memory bench's gateway process does besides running the CLI, shared by bench/servers/gateway-built.mjs
// (the built bundle) and bench/snapshot/gateway.cjs (the startup-snapshot experiment, whose deserialized main has no
// import(), hence CommonJS): writes the config into a temporary data directory, reads the port from the start banner,
// and answers `{memory: {gc}}` over IPC with process.memoryUsage(), V8's young and old generation sizes and, on
// Linux, the exact RSS split of /proc/self/smaps_rollup, after a full GC when asked, and `cpu` with its CPU time so
// far. HERMES_BENCH_SMAPS=PREFIX writes /proc/self/smaps to PREFIX-<time> at each memory answer.
const { existsSync, mkdtempSync, readFileSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { getHeapSpaceStatistics, setFlagsFromString } = require('node:v8');
const { runInNewContext } = require('node:vm');

/** Prepares this process as the bench's gateway; returns the CLI arguments `start` runs with. */
function prepareBenchGateway() {
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc');
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-memory-'));
  const configPath = join(dataDir, 'hermes-router.yaml');
  writeFileSync(
    configPath,
    JSON.stringify({
      logging: { level: 'silent' },
      providers: [{ id: 'bench', kind: 'openai-compatible', base_url: `${process.env.UPSTREAM ?? ''}/v1`, api_key: 'sk-bench', models: ['bench-model'] }],
      // TOOL_ROUTING=off: the same upstream bytes as the baseline proxies (bench/overhead.ts --built).
      ...(process.env.TOOL_ROUTING === 'off' ? { tool_routing: { mode: 'off' } } : {}),
    }),
  );
  reportPortFromBanner();
  answerMemoryQuestions(collectGarbage);
  return ['start', '--config', configPath, '--port', '0', '--data-dir', dataDir];
}

// The banner's first line names the address; the CLI's output is not wanted otherwise.
function reportPortFromBanner() {
  let banner = '';
  process.stdout.write = (chunk, ...rest) => {
    if (banner !== undefined) {
      banner += String(chunk);
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(banner);
      if (match) {
        banner = undefined;
        // The CPU time at the banner itself: what `start` runs after it (warm-ups, loads) is not in it.
        const cpu = process.cpuUsage();
        process.send?.({ port: Number(match[1]), bannerCpuMs: (cpu.user + cpu.system) / 1000 });
      }
    }
    const callback = rest.at(-1);
    if (typeof callback === 'function') callback();
    return true;
  };
}

/** Linux: RSS, its anonymous part (heaps, malloc) and the rest (mapped files: code, SQLite), page-exact. */
function residentSplit() {
  if (!existsSync('/proc/self/smaps_rollup')) return { rss: Number.NaN, rssAnon: Number.NaN, rssFile: Number.NaN };
  const text = readFileSync('/proc/self/smaps_rollup', 'utf8');
  const kilobytes = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN) * 1024;
  const rss = kilobytes('Rss');
  const anonymous = kilobytes('Anonymous');
  return { rss, rssAnon: anonymous, rssFile: rss - anonymous };
}

function answerMemoryQuestions(collectGarbage) {
  process.on('message', (message) => {
    if (message === 'exit') process.exit(0);
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (typeof message === 'object' && message !== null && 'memory' in message) {
      if (message.memory.gc) {
        collectGarbage();
        collectGarbage();
      }
      const usage = process.memoryUsage();
      if (process.env.HERMES_BENCH_SMAPS) writeFileSync(`${process.env.HERMES_BENCH_SMAPS}-${Date.now()}`, readFileSync('/proc/self/smaps', 'utf8'));
      const split = residentSplit();
      // What V8's heap holds committed against what its objects use: the young generation's semi-spaces, and the
      // old generation's pages (promoted garbage waits in them until a full collection).
      const spaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space]));
      const heapSpaces = {
        youngCommitted: spaces.new_space?.space_size ?? Number.NaN,
        oldCommitted: spaces.old_space?.space_size ?? Number.NaN,
        oldUsed: spaces.old_space?.space_used_size ?? Number.NaN,
      };
      process.send?.({ usage: { ...usage, rss: Number.isNaN(split.rss) ? usage.rss : split.rss, rssAnon: split.rssAnon, rssFile: split.rssFile, ...heapSpaces } });
    }
  });
}

module.exports = { prepareBenchGateway };
