import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { anthropicChat, call, openAiChat } from './security-client.js';

/**
 * Redaction by shape misses keys of shapes it does not know (a provider's own format, a self-hosted token).
 * The gateway knows every key it was configured with; none of them may come back out, whatever it looks like.
 */
const oddProviderKey = 'orgtoken.8f3a91c2e7d4b6a5Q';
const oddAnthropicKey = 'Zq7Pv9Lm2Xc4Rt8Wn1Kj';
const oddAdminKey = 'admin-password-Wq83kZ0';

describe('configured secrets of any shape', () => {
  let harness: Harness;
  const logLines: string[] = [];
  beforeAll(async () => {
    const base = defaultConfig('');
    harness = await startHarness(
      (url) => {
        const config = defaultConfig(url);
        return {
          ...config,
          providers: [
            { ...base.providers![0]!, base_url: `${url}/v1`, api_keys: [oddProviderKey] },
            { ...base.providers![1]!, base_url: url, api_key: oddAnthropicKey },
          ],
          fallbacks: {},
        };
      },
      {
        env: { HERMES_ROUTER_ADMIN_KEY: oddAdminKey },
        logger: pino(
          { level: 'debug' },
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              logLines.push(chunk.toString('utf8'));
              done();
            },
          }),
        ),
      },
    );
  });
  afterAll(() => harness.close());

  it('an upstream 400 echoing the provider key passes through to the client and the ledger without it', async () => {
    harness.upstream.enqueue({ kind: 'error', status: 400, message: `The credential ${oddProviderKey} may not call this model` });
    const before = harness.observer.records.length;
    const answer = await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', json: openAiChat, headers: { authorization: `Bearer ${oddAdminKey}` } });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toContain(oddProviderKey);
    expect(answer.text).toContain('[redacted');
    const record = (await harness.observer.waitFor(before + 1)).at(-1);
    expect(JSON.stringify(record)).toContain('[redacted');
    expect(JSON.stringify(record)).not.toContain(oddProviderKey);
  });

  it('an upstream 401 echoing the key (Anthropic format) reaches neither the client (served by the fallback), the attempts nor the log', async () => {
    harness.upstream.enqueue({ kind: 'error', status: 401, message: `key ${oddAnthropicKey} rejected; admin ${oddAdminKey}` });
    const before = harness.observer.records.length;
    const answer = await call(`${harness.gateway.url}/v1/messages`, { method: 'POST', json: anthropicChat });
    expect(answer.text).not.toContain(oddAnthropicKey);
    expect(answer.text).not.toContain(oddAdminKey);
    const record = (await harness.observer.waitFor(before + 1)).at(-1);
    expect(record?.attempts.some((attempt) => attempt.errorMessage?.includes('[redacted'))).toBe(true);
    expect(JSON.stringify(record)).not.toContain(oddAnthropicKey);
    expect(JSON.stringify(record)).not.toContain(oddAdminKey);
    const log = logLines.join('');
    expect(log).not.toContain(oddAnthropicKey);
    expect(log).not.toContain(oddAdminKey);
  });

  it('a streamed request whose upstream fails with the key in its message gets an error without it', async () => {
    harness.upstream.enqueue({ kind: 'error', status: 400, message: `bad request for ${oddProviderKey}` });
    const answer = await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', json: { ...openAiChat, stream: true } });
    expect(answer.text).not.toContain(oddProviderKey);
  });
});

describe('the gateway logger', () => {
  it('redacts configured secrets of any shape in error fields', async () => {
    const { rememberSecrets } = await import('../../src/core/known-secrets.js');
    const { withSecretRedaction } = await import('../../src/security/redacting-logger.js');
    const secret = 'plainword-but-secret-771';
    rememberSecrets([secret]);
    const lines: string[] = [];
    const logger = withSecretRedaction(
      pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(chunk.toString('utf8'));
            done();
          },
        }),
      ),
    );
    logger.warn({ err: new Error(`upstream said ${secret}`), error: `again ${secret}`, reason: { text: secret } }, 'failed');
    expect(lines.join('')).toContain('[redacted');
    expect(lines.join('')).not.toContain(secret);
  });
});
