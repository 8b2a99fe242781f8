// hermes-router itself, assembled as `hermes-router start` does (ledger on SQLite, metrics), with one
// OpenAI-compatible provider pointing at the bench upstream.
import './gateway-heap.js';
import { answerBenchControl } from './control.js';
import pino from 'pino';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { runConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import { startGateway } from '../../src/server/start-gateway.js';
import { collectWhenIdle } from '../../src/cli/idle-collection.js';
import { compactHeapApplied, gatewayHeapSettings } from '../../src/cli/heap-settings.js';
import { growYoungGenerationUnderLoad } from '../../src/cli/young-generation-limit.js';

const upstream = process.env.UPSTREAM ?? '';
const config = parseConfig(
  {
    server: { port: 0 },
    providers: [{ id: 'bench', kind: 'openai-compatible', base_url: `${upstream}/v1`, api_key: 'sk-bench', models: ['bench-model'] }],
    // TOOL_ROUTING=off makes the gateway forward the same tools as the baseline proxies, for a like-for-like
    // overhead comparison; the default (on) is what users run.
    tool_routing: { mode: process.env.TOOL_ROUTING === 'off' ? 'off' : 'on' },
  },
  'bench',
);
const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-bench-'));
// LEDGER=off measures the request path alone, so the ledger's own cost can be read off the difference.
const logger = pino({ level: process.env.LOG_LEVEL ?? 'silent' }, pino.destination(2));
const running =
  process.env.LEDGER === 'off'
    ? await startGateway({ config, dataDir, env: {}, logger })
    : await runConfiguredGateway({ config, dataDir, env: {}, logger });
// As `hermes-router start` runs it: a full collection once it has been quiet for a while (src/cli/idle-collection.ts).
if (process.env.HERMES_ROUTER_IDLE_COLLECTION !== 'off') collectWhenIdle(running.gateway.inFlight);
// As `start` does once it listens: with the compact heap settings, the young generation grows while many requests run.
if (compactHeapApplied()) growYoungGenerationUnderLoad(running.gateway.inFlight, gatewayHeapSettings.youngGeneration);
process.send?.({ port: Number(new URL(running.url).port) });
answerBenchControl();
