import { Writable } from 'node:stream';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/pipeline/load-config.js';
import { createLogger } from '../../src/server/start-gateway.js';
import { formatLogLine } from '../../src/server/text-log-destination.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

/** Stands in for stderr: a terminal or not, keeping what was written. */
class Terminal extends Writable {
  text = '';
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function oneRequest(stream: Terminal, format: 'auto' | 'json' | 'text'): Promise<string[]> {
  harness = await startHarness((url) => defaultConfig(url), { logger: createLogger('info', format, stream) });
  const client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
  await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'x-session-id': 'tty-session' } });
  await harness.observer.waitFor(1);
  return stream.text.split('\n').filter((line) => line.includes('/v1/chat/completions'));
}

describe('logs a person can read on a terminal, JSON for everything else', () => {
  it('on a terminal (auto): one plain line per request, no JSON', async () => {
    const lines = await oneRequest(new Terminal(true), 'auto');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d INFO  POST \/v1\/chat\/completions gpt-test → local\/gpt-test 200 \d+\+\d+ tokens .* ms.* session tty-session$/);
    expect(lines[0]).not.toContain('{');
  });

  it('not a terminal (auto), or --log-format json: JSON lines with the same fields', async () => {
    const lines = await oneRequest(new Terminal(false), 'auto');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 30, endpoint: '/v1/chat/completions', servedModel: 'gpt-test', status: 200, session: 'tty-session' });
  });

  it('--log-format text on a pipe: plain lines anyway', async () => {
    const lines = await oneRequest(new Terminal(false), 'text');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d INFO  POST /);
  });

  it('other events keep their error message and plain fields', () => {
    const line = formatLogLine(JSON.stringify({ level: 50, time: 0, msg: 'tool routing failed; sending the full surface', requestId: 'r1', err: { message: 'boom', stack: 'x' } }));
    expect(line).toMatch(/^\d\d:\d\d:\d\d ERROR tool routing failed; sending the full surface: boom {2}requestId=r1\n$/);
    expect(formatLogLine('not json')).toBe('not json\n');
  });

  it('the format comes from the config, HERMES_ROUTER_LOG_FORMAT or --log-format, and a wrong one names its choices', () => {
    const base = { cwd: '/nonexistent', dataDir: '/nonexistent' };
    expect(loadConfig({ ...base, env: {} }).config.logging.format).toBe('auto');
    expect(loadConfig({ ...base, env: { HERMES_ROUTER_LOG_FORMAT: 'json', HERMES_ROUTER_LOG_LEVEL: 'debug' } }).config.logging).toEqual({ level: 'debug', format: 'json' });
    expect(loadConfig({ ...base, env: { HERMES_ROUTER_LOG_FORMAT: 'json' }, overrides: { logFormat: 'text' } }).config.logging.format).toBe('text');
    expect(() => loadConfig({ ...base, env: {}, overrides: { logFormat: 'pretty' } })).toThrow(/logging\.format/);
  });
});
