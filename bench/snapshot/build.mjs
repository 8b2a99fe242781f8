// The startup-snapshot experiment (issue 17; numbers and verdict in docs/deployment.md, "Memory and start time"):
// writes dist/snapshot/hermes-router.blob from the built bundle (run `npm run build` first). Not part of the
// product: nothing in bin/ or `npm run build` uses it. Measure it with
//   node bench/snapshot/build.mjs
//   npm run bench:memory -- --sessions 0 --no-build --node-flags=--snapshot-blob=dist/snapshot/hermes-router.blob
// or start the gateway from it: node --snapshot-blob dist/snapshot/hermes-router.blob start [options].
// The blob is valid only for the Node that built it, under the same V8 flags, and for this build of the bundle.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('../../', import.meta.url));
const output = `${root}dist/snapshot/`;
mkdirSync(output, { recursive: true });
// The compile cache as CommonJS: the blob's main function cannot import() dist/cli/compile-cache.js.
await build({
  input: `${root}dist/cli/compile-cache.js`,
  platform: 'node',
  external: [/^node:/],
  logLevel: 'warn',
  output: { file: `${output}compile-cache.cjs`, format: 'cjs' },
});
const blob = `${output}hermes-router.blob`;
execFileSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', fileURLToPath(new URL('./entry.cjs', import.meta.url))], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  // Node warns that node:module and node:vm are "not yet fully verified" in a snapshot builder.
  env: { ...process.env, NODE_NO_WARNINGS: '1' },
});
process.stdout.write(`${blob}: ${(statSync(blob).size / 1024 / 1024).toFixed(1)} MB\n`);
