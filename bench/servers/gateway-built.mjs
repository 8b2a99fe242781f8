// hermes-router as `bin/hermes-router.js start` runs it, for the memory bench: the built CLI (dist/bundle/run.mjs,
// or dist/cli/run.js where only tsc ran) in plain `node`, no TypeScript loader in the process, so its RSS is the
// product's. The config, the port from the banner and the IPC answers: gateway-probe.cjs. HERMES_BENCH_ROOT runs
// another checkout's build instead (a baseline in the same run: its dist/, data/ and node_modules).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import probe from './gateway-probe.cjs';

const cliArguments = probe.prepareBenchGateway();
const root = process.env.HERMES_BENCH_ROOT ? pathToFileURL(`${process.env.HERMES_BENCH_ROOT.replace(/\/$/, '')}/`) : new URL('../../', import.meta.url);
const bundled = new URL('dist/bundle/run.mjs', root);
process.argv = [process.argv[0], 'hermes-router', ...cliArguments];
await import(existsSync(bundled) ? bundled.href : new URL('dist/cli/run.js', root).href);
