// hermes-router from the compiled dist/ (`npm run build`), assembled as `hermes-router start` does, for the
// memory bench: plain `node`, no TypeScript loader in the process, so its RSS is the product's. Answers
// `{memory: {gc}}` over IPC with process.memoryUsage(), after a full GC when asked.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { parseConfig } from '../../dist/pipeline/load-config.js';
import { runConfiguredGateway } from '../../dist/server/run-configured-gateway.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');
const upstream = process.env.UPSTREAM ?? '';
const config = parseConfig(
  {
    server: { port: 0 },
    providers: [{ id: 'bench', kind: 'openai-compatible', base_url: `${upstream}/v1`, api_key: 'sk-bench', models: ['bench-model'] }],
  },
  'bench',
);
const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-memory-'));
const running = await runConfiguredGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }) });
process.send?.({ port: Number(new URL(running.url).port) });
process.on('message', (message) => {
  if (message === 'exit') process.exit(0);
  if (typeof message === 'object' && message !== null && 'memory' in message) {
    if (message.memory.gc) {
      collectGarbage();
      collectGarbage();
    }
    // Linux splits RSS into anonymous memory (heaps, malloc) and mapped files (code, SQLite): read it when there.
    const status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '';
    const kilobytes = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) * 1024;
    process.send?.({ usage: { ...process.memoryUsage(), rssAnon: kilobytes('RssAnon'), rssFile: kilobytes('RssFile') } });
  }
});
