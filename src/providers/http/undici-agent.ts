import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Client as UndiciClient, errors as undiciErrors } from 'undici';

/**
 * The pieces of undici the transport uses, its `Agent` and `Client` (with the `request` API) and its error classes,
 * loaded without the package's index. The index also loads undici's fetch, WebSocket, cache stores and mock
 * agents, and touches `globalThis.Headers` while doing so, which makes Node load its own bundled copy of undici
 * too: at start that is ~110 files and ~19 MB RSS instead of ~30 files and ~10 MB (a plain `node -e`
 * measured both). The objects are the index's own: the index requires these same files and then copies the
 * request API onto `Dispatcher.prototype`, as this module does (twice is harmless: the same functions).
 *
 * Loaded on first use, not when this module loads: undici's ~30 files (and `node:http2`, which its client
 * requires whether or not a connection uses it) were ~15 % of the CPU `start` took to listen. `start` loads them
 * right after it listens, while no request waits (`loadUndici` in src/cli/start.ts), so the first request does not
 * pay for them either; a transport that sends before that (a start-time model list) loads them then.
 */
export interface UndiciPieces {
  Agent: typeof UndiciAgent;
  Client: typeof UndiciClient;
  errors: typeof undiciErrors;
}

let pieces: UndiciPieces | undefined;

export function loadUndici(): UndiciPieces {
  if (pieces === undefined) {
    const require = createRequire(import.meta.url);
    const dispatcherClass = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    Object.assign(dispatcherClass.prototype, require('undici/lib/api/index.js') as object);
    pieces = {
      Agent: require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent,
      Client: require('undici/lib/dispatcher/client.js') as typeof UndiciClient,
      errors: require('undici/lib/core/errors.js') as typeof undiciErrors,
    };
  }
  return pieces;
}
