// The compact heap settings `hermes-router start` applies to itself with HERMES_ROUTER_NODE_HEAP=compact
// (src/cli/heap-settings.ts), applied here first when that variable is set, so that the bench's gateway runs as
// the product would. Under tsx the young generation has already grown to 2 x 2 MB while tsx loaded (the built CLI
// starts at 2 x 1 MB); bench/overhead.ts --tuned="--max-semi-space-size=1 --heap-growing-percent=50" prices the
// product's exact sizes.
import { applyHeapSettings } from '../../src/cli/heap-settings.js';

applyHeapSettings(process.env, process.execArgv);
