'use strict';
// The snapshot builder of the startup-snapshot experiment (docs/deployment.md, "Memory and start time"): run by
// build.mjs as `node --snapshot-blob dist/snapshot/hermes-router.blob --build-snapshot bench/snapshot/entry.cjs`.
// Not part of the product: nothing in bin/ or `npm run build` uses the blob.
//
// It evaluates the bundle's chunks that `start` requires as it loads (dist/bundle/start-*.cjs and what those
// require, transitively) so that a start from the blob finds them evaluated, then runs the CLI as
// dist/bundle/run.mjs does. Node 20 constraints it works around:
// - the builder may not load user code through Node's CommonJS loader (a start from such a blob fails an internal
//   assertion), so the chunks are compiled here (vm.compileFunction) and handed to Module._cache once deserialized;
// - node:http, node:http2 and other modules with native handles cannot be in a snapshot, so a chunk that requires
//   one (anywhere in its text, or through another chunk) is left out, as are run.cjs (its body runs the CLI) and the
//   start chunk itself: they load after deserialization, through the compile cache, as in a normal start;
// - Array.prototype.toSorted is missing while building (V8 installs it later; node:http's module code calls it): a
//   stand-in for module code that calls it is removed before the heap is written;
// - import() is missing in the deserialized main, so the compile cache comes in as CommonJS (build.mjs bundles it).
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { fileURLToPath } = require('node:url');

const root = path.resolve(__dirname, '../..');
const bundle = path.join(root, 'dist/bundle');
const withHandles = /^(node:)?(http|https|http2|net|tls|dgram|cluster|child_process|inspector)$/;

const toSortedMissing = typeof Array.prototype.toSorted !== 'function';
if (toSortedMissing) {
  Object.defineProperty(Array.prototype, 'toSorted', { configurable: true, writable: true, value(compare) { return [...this].sort(compare); } });
  v8.startupSnapshot.addSerializeCallback(() => delete Array.prototype.toSorted);
}

/**
 * The chunks to evaluate while building, in the start chunk's order: those it requires as it loads (not
 * `()=>require(…)`, what its functions load on demand), less any that needs a module with handles, directly or
 * through another chunk. A function, so that none of the chunks' text it reads stays referenced from the heap.
 */
function chunksToEvaluate() {
  const chunkNames = fs.readdirSync(bundle).filter((name) => name.endsWith('.cjs'));
  const startChunk = chunkNames.find((name) => /^start-.*\.cjs$/.test(name));
  const texts = new Map(chunkNames.map((name) => [name, fs.readFileSync(path.join(bundle, name), 'utf8')]));
  const verdicts = new Map();
  const snapshottable = (name) => {
    if (verdicts.has(name)) return verdicts.get(name);
    verdicts.set(name, false); // a cycle counts as no
    const requires = [...texts.get(name).matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]);
    const verdict = name !== 'run.cjs' && name !== startChunk && requires.every((id) => (id.startsWith('./') ? snapshottable(id.slice(2)) : !withHandles.test(id)));
    verdicts.set(name, verdict);
    return verdict;
  };
  const eager = [...texts.get(startChunk).matchAll(/(=>)?require\("\.\/([^"]+)"\)/g)].filter((match) => !match[1]).map((match) => match[2]);
  // Copies: a match is a slice of the chunk's whole text, and would keep it.
  return { names: eager.filter(snapshottable).map((name) => Buffer.from(name).toString()), of: chunkNames.length };
}

const evaluated = new Map(); // filename -> module
let building = true;
const createRequire = Module.createRequire;
function requireFrom(filename) {
  let nodeRequire;
  const later = (id) => (nodeRequire ??= createRequire(filename))(id);
  return function require(id) {
    if (!building) return evaluated.get(resolve(id, filename))?.exports ?? later(id);
    if (Module.isBuiltin(id)) {
      if (withHandles.test(id)) throw new Error(`${id} cannot be in a startup snapshot (required from ${filename})`);
      return builtinRequire(id);
    }
    const resolved = resolve(id, filename);
    return (evaluated.get(resolved) ?? evaluate(resolved)).exports;
  };
}
const builtinRequire = require;
function resolve(id, from) {
  if (Module.isBuiltin(id)) return id;
  return Module._resolveFilename(id, { id: from, filename: from, paths: Module._nodeModulePaths(path.dirname(from)) }, false);
}
function evaluate(filename) {
  const module = { id: filename, filename, exports: {}, loaded: false };
  evaluated.set(filename, module);
  const wrapper = vm.compileFunction(fs.readFileSync(filename, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
  wrapper.call(module.exports, module.exports, requireFrom(filename), module, filename, path.dirname(filename));
  module.loaded = true;
  return module;
}

// Chunks that call createRequire as they load get this loader's require while building.
Module.createRequire = (from) => requireFrom(String(from).startsWith('file:') ? fileURLToPath(from) : String(from));
const compileCache = evaluate(path.join(root, 'dist/snapshot/compile-cache.cjs')).exports;
// As `start` does (src/cli/commands.ts): zod's jitless setting before the config's modules load. It also decides
// the order zod's own chunk evaluates in, which the heap's size depends on (+1.3 MB when the config chunk came first).
const zodJitless = fs.readdirSync(bundle).find((name) => /^zod-jitless-.*\.cjs$/.test(name));
evaluate(path.join(bundle, zodJitless)).exports.validateWithoutGeneratedCode();
const chunks = chunksToEvaluate();
for (const name of chunks.names) if (!evaluated.has(path.join(bundle, name))) evaluate(path.join(bundle, name));
Module.createRequire = createRequire;
// SNAPSHOT_LIST=<file>: the files evaluated, one a line (to check what the blob holds).
if (process.env.SNAPSHOT_LIST) fs.writeFileSync(process.env.SNAPSHOT_LIST, [...evaluated.keys()].join('\n'));
process.stderr.write(`startup snapshot: ${chunks.names.length} chunks the start chunk requires as it loads (of ${chunks.of} in the bundle), ${evaluated.size} files evaluated in all\n`);

v8.startupSnapshot.setDeserializeMainFunction(() => {
  building = false;
  for (const [filename, evaluatedModule] of evaluated) {
    const module = new Module(filename, null);
    module.filename = filename;
    module.paths = Module._nodeModulePaths(path.dirname(filename));
    module.exports = evaluatedModule.exports;
    module.loaded = true;
    Module._cache[filename] = module;
  }
  // Node 20 gives a deserialized main `process.argv` without the script; the CLI reads its command from argv[2].
  process.argv.splice(1, 0, path.join(root, 'bin/hermes-router.js'));
  const runCli = () => {
    compileCache.installCompileCache(new URL(`file://${bundle}/`));
    createRequire(path.join(bundle, 'run.cjs'))('./run.cjs');
  };
  // bench:memory forks bench/servers/gateway-built.mjs: with the blob, its CommonJS twin runs instead.
  if (process.argv[2]?.endsWith('gateway-built.mjs')) {
    globalThis.hermesRouterRunCli = runCli;
    createRequire(__filename)('./gateway.cjs');
  } else {
    runCli();
  }
});
