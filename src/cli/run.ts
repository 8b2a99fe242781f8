// The process entry point: `bin/hermes-router.js` runs the compiled copy; tests run this file through tsx.
import { main } from './main.js';

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
