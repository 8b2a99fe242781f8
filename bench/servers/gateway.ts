// hermes-router itself, configured with one OpenAI-compatible provider pointing at the bench upstream.
import pino from 'pino';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import { startGateway } from '../../src/server/start-gateway.js';
import { createBenchObservers } from './observers.js';

const upstream = process.env.UPSTREAM ?? '';
const config = parseConfig(
  {
    server: { port: 0 },
    providers: [{ id: 'bench', kind: 'openai-compatible', base_url: `${upstream}/v1`, api_key: 'sk-bench', models: ['bench-model'] }],
  },
  'bench',
);
const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-bench-'));
const { observers, close } = await createBenchObservers(config, dataDir);
const running = await startGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }), observers, onShutdown: close });
process.send?.({ port: Number(new URL(running.url).port) });
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
