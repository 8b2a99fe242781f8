import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * The compile cache (src/cli/compile-cache.ts) in a child Node, as dist/bundle/run.mjs installs it: it replaces
 * CommonJS compilation process-wide, so it is not installed in the test worker. Each run requires `main.cjs` from
 * a bundle folder, saves, and prints what the script returned and how it was compiled.
 */
const compileCacheModule = pathToFileURL(join(import.meta.dirname, '../../src/cli/compile-cache.ts')).href;
let root: string;
let bundle: string;
let cache: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-router-compile-cache-'));
  bundle = join(root, 'dist', 'bundle');
  cache = join(root, 'cache');
  mkdirSync(bundle, { recursive: true });
  // The module API a bundle chunk uses: exports, a sibling required by a relative path, __dirname, require.resolve.
  writeFileSync(join(bundle, 'helper.cjs'), 'exports.twice = (value) => value * 2;\n');
  writeMain('21');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function writeMain(value: string): void {
  writeFileSync(
    join(bundle, 'main.cjs'),
    `'use strict'; const column = Number(/main\\.cjs:1:(\\d+)/.exec(new Error('where').stack)[1]);
const { twice } = require('./helper.cjs');
module.exports = { answer: twice(${value}), column, here: __dirname, helper: require.resolve('./helper.cjs'), strict: this === module.exports && (function () { return this; })() === undefined };
`,
  );
}

interface Run {
  answer: number;
  column: number;
  here: string;
  helper: string;
  strict: boolean;
  installed: boolean;
  counts?: { fromCache: number; fromText: number };
}

function run(setting: string = cache, early = false): Run {
  const script = `
    import { createRequire } from 'node:module';
    import { installCompileCache } from ${JSON.stringify(compileCacheModule)};
    const bundle = new URL(${JSON.stringify(pathToFileURL(`${bundle}/`).href)});
    const installed = installCompileCache(bundle, { HERMES_ROUTER_COMPILE_CACHE: ${JSON.stringify(setting)} });
    if (${early}) createRequire(bundle)('./early.cjs');
    installed?.startRecording();
    const exported = createRequire(bundle)('./main.cjs');
    installed?.save();
    process.stdout.write(JSON.stringify({ ...exported, installed: installed !== undefined, counts: installed?.counts }));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: join(import.meta.dirname, '../..') });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as Run;
}

const entries = () => readdirSync(readdirSync(cache).map((folder) => join(cache, folder))[0] ?? cache);

describe('the compile cache', () => {
  it('compiles from the text on the first start, then from the cached code, with the same module API', () => {
    const first = run();
    // Stack traces give the file's own column on its first line (Node's loader does), not the wrapper's.
    expect(first).toEqual({ answer: 42, column: "'use strict'; const column = Number(/main\\.cjs:1:(\\d+)/.exec(".length + 1, here: bundle, helper: join(bundle, 'helper.cjs'), strict: true, installed: true, counts: { fromCache: 0, fromText: 2 } });
    expect(entries()).toHaveLength(2);
    const second = run();
    expect(second).toEqual({ ...first, counts: { fromCache: 2, fromText: 0 } });
  });

  it('never serves the code of an earlier build of a file (V8 checks only the length of the text)', () => {
    run();
    writeMain('12');
    const rebuilt = run();
    expect(rebuilt.answer).toBe(24);
    expect(rebuilt.counts).toEqual({ fromCache: 1, fromText: 1 });
    // The earlier build's entry is pruned at the save.
    expect(entries()).toHaveLength(2);
  });

  it('compiles from the text when an entry is not V8 code', () => {
    run();
    for (const name of entries()) writeFileSync(join(readdirSync(cache).map((folder) => join(cache, folder))[0]!, name), 'not code');
    const damaged = run();
    expect(damaged.answer).toBe(42);
    expect(damaged.counts).toEqual({ fromCache: 0, fromText: 2 });
    expect(run().counts).toEqual({ fromCache: 2, fromText: 0 });
  });

  it('writes entries only for the scripts compiled while it records (the others compiled under other V8 flags)', () => {
    writeFileSync(join(bundle, 'early.cjs'), 'module.exports = 1;\n');
    expect(run(cache, true).counts).toEqual({ fromCache: 0, fromText: 3 });
    expect(entries()).toHaveLength(2);
    expect(run(cache, true).counts).toEqual({ fromCache: 2, fromText: 1 });
  });

  it('is not installed with HERMES_ROUTER_COMPILE_CACHE=off', () => {
    expect(run('off')).toMatchObject({ answer: 42, installed: false });
  });
});
