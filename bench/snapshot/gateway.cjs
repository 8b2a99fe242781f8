'use strict';
// bench/servers/gateway-built.mjs as CommonJS, for a gateway started from the startup-snapshot experiment's blob
// (bench/snapshot/entry.cjs runs it in place of gateway-built.mjs: a deserialized main has no import()). Same
// config, banner and IPC answers (bench/servers/gateway-probe.cjs); it runs the CLI through the blob's
// hermesRouterRunCli instead of importing run.mjs.
const { prepareBenchGateway } = require('../servers/gateway-probe.cjs');

process.argv = [process.argv[0], 'hermes-router', ...prepareBenchGateway()];
globalThis.hermesRouterRunCli();
