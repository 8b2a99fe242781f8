// The compact heap settings `hermes-router start` applies to itself unless HERMES_ROUTER_NODE_HEAP=default
// (src/cli/heap-settings.ts), applied here first, so that the bench's gateway runs as the product would. Under tsx
// the young generation has already grown (2 x 8 or 2 x 16 MB) while tsx loaded, so bench/overhead.ts and
// bench/profile.ts give it the product's sizes on Node's command line (`productHeapFlags` in ../support.ts; these
// settings then stand aside for them); --tuned=HERMES_ROUTER_NODE_HEAP=default prices Node's own sizing.
import { applyHeapSettings, startHeapEnvironment } from '../../src/cli/heap-settings.js';

applyHeapSettings(startHeapEnvironment(process.env), process.execArgv);
