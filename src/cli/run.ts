// The process entry point: `bin/hermes-router.js` runs the compiled copy; tests run this file through tsx.
import { applyHeapSettings, startHeapEnvironment } from './heap-settings.js';
import { main } from './main.js';

// A gateway's compact heap settings (its default; HERMES_ROUTER_NODE_HEAP=default opts out) go in before it loads
// anything: the young generation grows while modules and models load, and a setting applied later would keep it at that size.
if (process.argv[2] === 'start') applyHeapSettings(startHeapEnvironment(process.env), process.execArgv);

// `hermes-router report requests | head` closes the pipe early: the reader has what it wanted, so stop quietly
// (as `git log | head` does) instead of an unhandled EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
