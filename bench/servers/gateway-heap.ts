// The compact heap settings `hermes-router start` applies to itself unless HERMES_ROUTER_NODE_HEAP=default
// (src/cli/heap-settings.ts), applied here first, so that the bench's gateway runs as the product would. Under tsx
// the young generation would have grown (2 x 8 or 2 x 16 MB) while tsx loaded, so bench/overhead.ts and
// bench/profile.ts hold it before tsx loads (`productHeapFlags` in ../support.ts); --tuned=HERMES_ROUTER_NODE_HEAP=default
// prices Node's own sizing, and heap flags given to --tuned make these settings stand aside.
import { applyHeapSettings, startHeapEnvironment } from '../../src/cli/heap-settings.js';

applyHeapSettings(startHeapEnvironment(process.env), process.execArgv);
