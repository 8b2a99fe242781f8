import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactJson, redactSecrets } from '../../src/core/redact.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { call, openAiChat } from './security-client.js';

const providerKey = 'sk-proj-abcdefghijklmnop1234567890WXYZ';

describe('redactSecrets', () => {
  it.each([
    [`Incorrect API key provided: ${providerKey}. You can find your key at …`, providerKey],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payloadpayload.signaturesig', 'payloadpayload'],
    ['request to https://x.example/v1?key=AIzaSyA1234567890abcdefghijklmnopq failed', 'AIzaSyA1234567890abcdefghij'],
    ['{"api_key": "plain-secret-value-12345"}', 'plain-secret-value'],
    ['anthropic said sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAA1234 is invalid', 'sk-ant-api03-AAAA'],
    ['our own key hrk_0123456789_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh leaked', 'ABCDEFGHIJKLMNOP'],
  ])('removes the secret from %s, keeping at most its last four characters', (text, secret) => {
    const redacted = redactSecrets(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain('[redacted');
  });

  it('leaves ordinary error text alone', () => {
    const text = "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.";
    expect(redactSecrets(text)).toBe(text);
  });

  it('redacts nested JSON without letting __proto__ replace the prototype', () => {
    const body = JSON.parse(`{"error":{"message":"bad key ${providerKey}"},"__proto__":{"polluted":"sk-0123456789abcdefghij"}}`) as unknown;
    const redacted = redactJson(body) as Record<string, unknown>;
    expect(JSON.stringify(redacted)).not.toContain(providerKey);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('provider error bodies through the gateway', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness((url) => ({ ...defaultConfig(url), fallbacks: {} }));
  });
  afterAll(() => harness.close());

  it('a 4xx echoing a key reaches neither the client nor the ledger with the key in it', async () => {
    harness.upstream.enqueue({ kind: 'error', status: 400, message: `Invalid request for key ${providerKey} (Bearer ${providerKey})` });
    const before = harness.observer.records.length;
    const answer = await call(`${harness.gateway.url}/v1/chat/completions`, { method: 'POST', json: openAiChat });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toContain(providerKey);
    expect(answer.text).toContain('[redacted');
    const record = (await harness.observer.waitFor(before + 1)).at(-1);
    expect(JSON.stringify(record)).not.toContain(providerKey);
  });

  it('a 401 from upstream that names the configured key is redacted in the attempt record and the final error', async () => {
    harness.upstream.setScript({ respond: () => ({ kind: 'error', status: 401, message: 'Incorrect API key provided: sk-local-a' }) });
    const before = harness.observer.records.length;
    const client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
    const failure = await client.chat.completions.create(openAiChat as never).catch((error: unknown) => error);
    expect(String((failure as Error).message)).not.toContain('sk-local-a');
    const record = (await harness.observer.waitFor(before + 1)).at(-1);
    expect(JSON.stringify(record)).not.toContain('sk-local-a');
    harness.upstream.reset();
  });
});
