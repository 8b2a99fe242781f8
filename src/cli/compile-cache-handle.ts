/**
 * How the running CLI reaches the compile cache (compile-cache.ts) without importing it: the cache is installed by
 * the bundle's entry (dist/bundle/run.mjs, before the bundle loads) from its own file, while `start` runs inside
 * the bundle, so a module-level variable would be two variables. A process-wide symbol is one.
 */
export const compileCacheSymbol = Symbol.for('hermes-router.compile-cache');

export interface CompileCacheHandle {
  /** Scripts compiled from now on until the save are recorded (before this, none are). */
  startRecording(): void;
  /** Writes the code of the recorded scripts that had no usable cache entry; once per process. */
  save(): void;
}

const handle = () => (globalThis as { [compileCacheSymbol]?: CompileCacheHandle })[compileCacheSymbol];

/**
 * The start command's loader calls this right after it holds the young generation (start-heap.ts), and `start`
 * saves before it releases it: V8 accepts cached code only under the V8 flags it was made with, and between those
 * two calls the flags are the ones the recorded scripts compile under at every start. The CLI's entry, compiled
 * before the hold, is left out (a small file): written under the hold's flags it would be rejected, and written
 * again, at every start.
 */
export function startRecordingCompileCache(): void {
  handle()?.startRecording();
}

/** Asks the compile cache, if this process runs with one, to write what it recorded. */
export function saveCompileCache(): void {
  handle()?.save();
}
