// Preloaded (`--import`) right after tsx by the bench's gateways (`productHeapFlags` in ../support.ts): the young
// generation keeps its size while tsx compiles and loads the gateway's modules, as it does while the built CLI
// loads under `hermes-router start`'s compact heap settings (src/cli/heap-settings.ts). Set on V8's command line a
// growth factor of 1 is raised to 2, and so it is when tsx creates its loader's worker thread (V8 checks the flag
// for every new heap), so it is set here, at run time, after tsx and before the gateway's modules load.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--semi-space-growth-factor=1');
