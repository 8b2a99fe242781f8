'use strict';
// bench/servers/gateway-built.mjs as CommonJS, for a gateway started from the startup-snapshot experiment's blob
// (bench/snapshot/entry.cjs runs it in place of gateway-built.mjs: a deserialized main has no import()). Same
// config, banner and IPC answers; it runs the CLI through the blob's hermesRouterRunCli instead of importing run.mjs.
const { existsSync, mkdtempSync, readFileSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { getHeapSpaceStatistics, setFlagsFromString } = require('node:v8');
const { runInNewContext } = require('node:vm');

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');
const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-memory-'));
const configPath = join(dataDir, 'hermes-router.yaml');
writeFileSync(
  configPath,
  JSON.stringify({
    logging: { level: 'silent' },
    providers: [{ id: 'bench', kind: 'openai-compatible', base_url: `${process.env.UPSTREAM ?? ''}/v1`, api_key: 'sk-bench', models: ['bench-model'] }],
  }),
);

// The banner's first line names the address; the CLI's output is not wanted otherwise.
let banner = '';
process.stdout.write = (chunk, ...rest) => {
  if (banner !== undefined) {
    banner += String(chunk);
    const match = /listening on http:\/\/[^:]+:(\d+)/.exec(banner);
    if (match) {
      banner = undefined;
      process.send?.({ port: Number(match[1]) });
    }
  }
  const callback = rest.at(-1);
  if (typeof callback === 'function') callback();
  return true;
};

process.argv = [process.argv[0], 'hermes-router', 'start', '--config', configPath, '--port', '0', '--data-dir', dataDir];
globalThis.hermesRouterRunCli();

/** Linux: RSS, its anonymous part (heaps, malloc) and the rest (mapped files: code, SQLite), page-exact. */
function residentSplit() {
  if (!existsSync('/proc/self/smaps_rollup')) return { rss: Number.NaN, rssAnon: Number.NaN, rssFile: Number.NaN };
  const text = readFileSync('/proc/self/smaps_rollup', 'utf8');
  const kilobytes = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN) * 1024;
  const rss = kilobytes('Rss');
  const anonymous = kilobytes('Anonymous');
  return { rss, rssAnon: anonymous, rssFile: rss - anonymous };
}

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
