// `npm run build`, second step: the CLI as `bin/hermes-router.js` runs it, bundled and minified into dist/bundle/
// from dist/cli/run.js (the first step, tsc) and the pure-JS packages it imports. Node then resolves, reads and
// compiles a few files instead of ~480 (zod alone is 95): start to listening takes about half the CPU, and the
// minified script text leaves several MB of source strings out of the heap (numbers in docs/deployment.md,
// "Memory and start time"). Commands stay lazily loaded: each `import()` is a chunk of its own. Left outside the
// bundle: native addons and packages that find their own files on disk (better-sqlite3; gpt-tokenizer's data),
// the cluster-only clients (loaded only with `storage: cluster`), undici (loaded piecewise, see
// src/providers/http/undici-agent.ts) and the price catalogue (required on first use, see
// src/catalog/prices/genai-prices.ts: half a megabyte of price data a start need not compile).
//
// The chunks are CommonJS (`.cjs`, the package is `"type": "module"`) so that they can compile with a V8 code
// cache: Node 20 compiles ES modules only from their text, while a CommonJS script can be compiled through
// `vm.Script` with the code an earlier start produced (src/cli/compile-cache.ts). `dist/bundle/run.mjs`, written
// below, installs that cache and then requires the bundle; bin/hermes-router.js and the benches import it as before.
//
// rolldown is the bundler under vite (a dev dependency already) and tsdown; it runs on Node 20.
import { writeFileSync } from 'node:fs';
import { build } from 'rolldown';

await build({
  input: { run: 'dist/cli/run.js' },
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', /^gpt-tokenizer(\/|$)/, 'pg', 'ioredis', /^undici(\/|$)/, '@pydantic/genai-prices'],
  logLevel: 'warn',
  output: {
    // Two levels below the package root, as dist/cli/ is: the modules that find package.json, data/ and
    // dashboard/ by walking up from import.meta.url work unchanged.
    dir: 'dist/bundle',
    format: 'cjs',
    // The sources are ES modules, strict by definition; CommonJS is strict only when it says so.
    strict: true,
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    // Old chunks (their names carry a hash) would pile up beside the new ones.
    cleanDir: true,
    minify: true,
    // ASCII only: a chunk with one character beyond Latin-1 would be held in the heap as a two-byte string.
    charset: 'ascii',
    sourcemap: false,
  },
});

writeFileSync(
  'dist/bundle/run.mjs',
  `// Written by scripts/build/bundle-cli.mjs: the compile cache first (dist/cli/compile-cache.js), then the CLI.
import { createRequire } from 'node:module';
import { installCompileCache } from '../cli/compile-cache.js';

installCompileCache(new URL('./', import.meta.url));
createRequire(import.meta.url)('./run.cjs');
`,
);
