/**
 * How the running CLI reaches the compile cache (compile-cache.ts) without importing it: the cache is installed by
 * the bundle's entry (dist/bundle/run.mjs, before the bundle loads) from its own file, while `start` runs inside
 * the bundle, so a module-level variable would be two variables. A process-wide symbol is one.
 */
export const compileCacheSymbol = Symbol.for('hermes-router.compile-cache');

export interface CompileCacheHandle {
  /** Writes the code of the scripts this process compiled without a usable cache entry; once per process. */
  save(): void;
}

/**
 * Asks the compile cache, if this process runs with one, to write what it compiled. `start` calls it once it
 * listens and before it hands the young generation back (start-heap.ts): V8 accepts a cache entry only under the
 * V8 flags it was written with, and that is the moment the flags equal those the start's modules compiled under.
 */
export function saveCompileCache(): void {
  const handle = (globalThis as { [compileCacheSymbol]?: CompileCacheHandle })[compileCacheSymbol];
  handle?.save();
}
