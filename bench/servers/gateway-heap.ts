// The compact heap settings `hermes-router start` applies to itself unless HERMES_ROUTER_NODE_HEAP=default
// (src/cli/heap-settings.ts), applied here first, so that the bench's gateway runs as the product would. Under tsx
// the young generation has already grown to 2 x 2 MB while tsx loaded (the built CLI starts at 2 x 1 MB);
// bench/overhead.ts --tuned="--max-semi-space-size=1 --heap-growing-percent=50" prices the product's exact sizes,
// --tuned=HERMES_ROUTER_NODE_HEAP=default Node's own sizing.
import { applyHeapSettings, startHeapEnvironment } from '../../src/cli/heap-settings.js';

applyHeapSettings(startHeapEnvironment(process.env), process.execArgv);
