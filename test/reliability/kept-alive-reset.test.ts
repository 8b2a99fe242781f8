import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/pipeline/load-config.js';
import { startGateway } from '../../src/server/start-gateway.js';
import type { RunningGateway } from '../../src/server/start-gateway.js';
import { RecordingObserver } from '../support/gateway-harness.js';
import { startClosingKeepAliveUpstream } from '../support/closing-keep-alive-upstream.js';
import type { ClosingKeepAliveUpstream } from '../support/closing-keep-alive-upstream.js';

/**
 * The keep-alive race seen as rare 502s in bench/overhead and bench/load under heavy load: the gateway reuses an
 * idle upstream connection just as the upstream closes it, so the request meets a closed socket before any byte
 * of answer. With one provider, one key and one model there is nothing to fail over to; the request would have
 * worked on a new connection, so the gateway must send it there instead of answering 502 (and resting the key).
 */

let upstream: ClosingKeepAliveUpstream;
let gateway: RunningGateway;
let observer: RecordingObserver;
let dataDir: string;

beforeEach(async () => {
  upstream = await startClosingKeepAliveUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-keep-alive-'));
  observer = new RecordingObserver();
  const config = parseConfig(
    {
      server: { port: 0 },
      providers: [{ id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'sk-local', models: ['gpt-test'] }],
      default_model: 'gpt-test',
      tool_routing: { mode: 'off' },
    },
    'test',
  );
  gateway = await startGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }), observers: [observer] });
});
afterEach(async () => {
  await gateway.close();
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function ask(stream: boolean): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-test', stream, messages: [{ role: 'user', content: 'hello' }] }),
  });
  return { status: response.status, text: await response.text() };
}

describe('an upstream connection closed as the gateway reuses it', () => {
  for (const stream of [false, true]) {
    it(`is retried once on a new connection, not answered 502 (${stream ? 'stream' : 'JSON'})`, async () => {
      expect((await ask(stream)).status).toBe(200);
      const second = await ask(stream);
      expect(second.status, second.text).toBe(200);
      expect(second.text).toContain('fresh connection');
      // The second request met the closing connection, then was answered on a new one.
      expect(upstream.closedOnReuse()).toBe(1);
      expect(upstream.connections()).toBe(2);
      expect(upstream.answered()).toBe(2);
      // One attempt as far as routing knows: the key is not rested, so a third request goes through too.
      const records = await observer.waitFor(2);
      expect(records[1]?.attempts).toHaveLength(1);
      expect(records[1]?.attempts[0]?.status).toBe(200);
      expect((await ask(stream)).status).toBe(200);
    });
  }
});
