import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script, constants as vmConstants } from 'node:vm';
import { type CompileCacheHandle, compileCacheSymbol } from './compile-cache-handle.js';

/**
 * A V8 code cache for the bundled CLI (dist/bundle/*.cjs) and the CommonJS packages it requires (undici,
 * prom-client, better-sqlite3's wrapper), as v8-compile-cache does for CommonJS: each script is compiled through
 * `vm.Script` with the code V8 produced for it in an earlier start, so V8 neither parses it again nor compiles the
 * functions that start ran. Node 20 has no compile cache of its own (`module.enableCompileCache` is Node 22) and
 * compiles ES modules only from source, which is why the bundle is CommonJS. Compiling was about a quarter of
 * the CPU a start took (docs/deployment.md, "Memory and start time").
 *
 * Entries live in HERMES_ROUTER_COMPILE_CACHE (`off`: none), else $XDG_CACHE_HOME/hermes-router/compile-cache,
 * else ~/.cache/hermes-router/compile-cache, created private to the user (cached code runs as this program),
 * one folder per Node version and install. An entry is named by a hash of the file's path and text: V8 itself
 * checks only the text's length, so a rebuilt file must not find the code of its previous build. V8 rejects an
 * entry made by another V8 or under other V8 flags (`cachedDataRejected`); the script then compiles from its
 * text as it would without a cache, and the next save replaces the entry. Nothing here can fail a start: a
 * folder that cannot be read or written means compiling as before.
 */

/** Node's module internals this file uses (documented for CommonJS loaders, absent from @types/node). */
interface InternalModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string, format?: string): unknown;
}
interface InternalModuleClass {
  prototype: InternalModule;
  wrap(content: string): string;
  wrapper: readonly [string, string];
  _resolveFilename(request: string, parent: InternalModule, isMain: boolean, options?: { paths?: string[] }): string;
  _extensions: unknown;
  _cache: unknown;
}

/** What the installed cache did so far: scripts compiled from their cached code, and from their text. */
export interface CompileCacheCounts {
  fromCache: number;
  fromText: number;
}

interface CompiledScript {
  entry: string;
  script: Script;
  /** No entry, or V8 rejected it: write one at the next save. */
  stale: boolean;
}

/** The cache folder for this Node and this install, or undefined when switched off. */
export function compileCacheDirectory(env: NodeJS.ProcessEnv, installDirectory: string): string | undefined {
  const setting = env.HERMES_ROUTER_COMPILE_CACHE;
  if (setting === 'off') return undefined;
  const base = setting || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hermes-router', 'compile-cache');
  // Two installs (or checkouts) keep their own folders, so neither prunes the other's entries.
  const install = createHash('sha256').update(installDirectory).digest('hex').slice(0, 12);
  return join(base, `${process.version}-${process.arch}-${install}`);
}

/** The entry's file name: the path and text of the script, hashed. */
export function compileCacheEntryName(filename: string, content: string): string {
  return `${createHash('sha256').update(filename).update('\0').update(content).digest('hex').slice(0, 40)}.bin`;
}

function readEntry(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Installs the cache for the CommonJS scripts under `bundleDirectory` and in any node_modules folder, and
 * registers the handle `saveCompileCache()` (compile-cache-handle.ts) reaches. Returns the handle, or undefined
 * when the cache is off.
 */
export function installCompileCache(bundleDirectory: URL, env: NodeJS.ProcessEnv = process.env): (CompileCacheHandle & { counts: CompileCacheCounts }) | undefined {
  const bundlePath = fileURLToPath(bundleDirectory).replace(/[\\/]$/, '') + sep;
  const directory = compileCacheDirectory(env, bundlePath);
  if (directory === undefined) return undefined;
  const moduleClass = Module as unknown as InternalModuleClass;
  const compileFromText = moduleClass.prototype._compile;
  const compiled: CompiledScript[] = [];
  let saved = false;
  let recording = false;
  const counts: CompileCacheCounts = { fromCache: 0, fromText: 0 };
  const nodeModules = `${sep}node_modules${sep}`;

  moduleClass.prototype._compile = function compileWithCache(this: InternalModule, content: string, filename: string, format?: string) {
    // An ES module required from CommonJS (Node's require(esm)) and scripts outside the bundle and its packages
    // compile as Node compiles them.
    if (format === 'module' || !(filename.startsWith(bundlePath) || filename.includes(nodeModules))) {
      return compileFromText.call(this, content, filename, format);
    }
    const entry = join(directory, compileCacheEntryName(filename, content));
    const cachedData = readEntry(entry);
    const script = new Script(moduleClass.wrap(content), {
      filename,
      // Stack traces give the file's own columns on its first line, as Node's loader does (not the wrapper's).
      columnOffset: -moduleClass.wrapper[0].length,
      ...(cachedData ? { cachedData } : {}),
      importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const stale = cachedData === undefined || script.cachedDataRejected === true;
    counts[stale ? 'fromText' : 'fromCache'] += 1;
    if (recording) compiled.push({ entry, script, stale });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...parameters: unknown[]) => unknown;
    // The `require` Node gives a module (lib/internal/modules/helpers.js, makeRequireFunction).
    const module = this;
    const require = Object.assign((id: string) => module.require(id), {
      resolve: (request: string, options?: { paths?: string[] }) => moduleClass._resolveFilename(request, module, false, options),
      main: process.mainModule,
      extensions: moduleClass._extensions,
      cache: moduleClass._cache,
    });
    return wrapper.call(module.exports, module.exports, require, module, filename, dirname(filename));
  };

  const handle: CompileCacheHandle = {
    startRecording() {
      recording = !saved;
    },
    save() {
      if (saved) return;
      saved = true;
      recording = false;
      // Every entry was there and accepted: nothing to write, nothing to prune.
      if (!compiled.some(({ stale }) => stale)) {
        compiled.length = 0;
        return;
      }
      try {
        mkdirSync(directory, { recursive: true, mode: 0o700 });
        for (const { entry, script, stale } of compiled) {
          if (!stale) continue;
          // Written whole and then renamed: two gateways starting at once never read half an entry.
          const partial = `${entry}.${process.pid}.partial`;
          writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
          renameSync(partial, entry);
        }
        // Entries of earlier builds of this install: nothing will ask for them again.
        const current = new Set(compiled.map(({ entry }) => entry));
        for (const name of readdirSync(directory)) {
          const path = join(directory, name);
          if (!current.has(path)) unlinkSync(path);
        }
      } catch {
        // A read-only or full disk: the next start compiles from the text, as without a cache.
      }
      compiled.length = 0;
    },
  };
  (globalThis as { [compileCacheSymbol]?: CompileCacheHandle })[compileCacheSymbol] = handle;
  return { ...handle, counts };
}
