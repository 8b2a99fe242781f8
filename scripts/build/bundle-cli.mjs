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
// rolldown is the bundler under vite (a dev dependency already) and tsdown; it runs on Node 20.
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
    format: 'esm',
    entryFileNames: '[name].mjs',
    chunkFileNames: '[name]-[hash].mjs',
    // Old chunks (their names carry a hash) would pile up beside the new ones.
    cleanDir: true,
    minify: true,
    // ASCII only: a chunk with one character beyond Latin-1 would be held in the heap as a two-byte string.
    charset: 'ascii',
    sourcemap: false,
  },
});
