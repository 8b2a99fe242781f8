import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/pipeline/load-config.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { RequestRecord } from '../../src/core/ledger-record.js';
import { dropSchemas, postgresAvailable, postgresTestUrl, uniqueSchemaName } from '../../src/store/postgres/postgres-test-support.js';
import { deleteKeyPrefixes, redisAvailable, redisTestUrl, uniqueKeyPrefix } from '../../src/store/redis/redis-test-support.js';
import { postChat, startInstance } from '../cluster/cluster-harness.js';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

const adminKey = 'test-admin-key-semantic-0123456789';

/**
 * Vectors the fake upstream returns for these texts (every other text gets an unrelated derived vector), so the
 * similarities are known: 0.98 for the paraphrases, 0.90 for the near miss, against a threshold of 0.95.
 */
const vectors: Record<string, number[]> = {
  'What is the capital of France?': [1, 0, 0, 0],
  'what is the capital city of France': [0.98, Math.sqrt(1 - 0.98 ** 2), 0, 0],
  'What is the capital of Spain?': [0.9, Math.sqrt(1 - 0.9 ** 2), 0, 0],
  'Tell me about the Eiffel tower.': [0, 0, 1, 0],
  'tell me about the eiffel tower please': [0, 0, 0.98, Math.sqrt(1 - 0.98 ** 2)],
  'Name a prime number.': [0, 0, 0, 1],
  'name any prime number': [0, 0, Math.sqrt(1 - 0.99 ** 2), 0.99],
  'Which ocean is the largest?': [0, 1, 0, 0],
  'which is the largest ocean': [0, 0.99, 0, Math.sqrt(1 - 0.99 ** 2)],
  'How tall is Everest?': [0.5, 0.5, 0.5, 0.5],
  'how tall is mount Everest': [0.49, 0.51, 0.5, 0.5],
  'Who wrote Hamlet?': [Math.SQRT1_2, 0, Math.SQRT1_2, 0],
  'who is the author of Hamlet': [0.7, 0.1, 0.7, 0.1],
  'Who painted the Mona Lisa?': [0, Math.SQRT1_2, 0, Math.SQRT1_2],
  'who is the painter of the Mona Lisa': [0.1, 0.7, 0.1, 0.7],
  'How many legs does a spider have?': [0.6, 0.8, 0, 0],
  'how many legs do spiders have': [0.62, 0.78, 0.08, 0],
};

/**
 * The lookup's own timeout: long enough that a loaded machine's embeddings round trip never reaches it (300 ms
 * did, on the first lookup of a run at load average 24: a miss that was never remembered, so the next test's
 * paraphrase found nothing), and far below the provider's first-byte timeout, so the hung-embeddings case still
 * tells the two apart.
 */
const lookupTimeoutMs = 5_000;
const firstByteMs = 60_000;

function semanticConfig(url: string): ConfigInput {
  const base = defaultConfig(url);
  return {
    ...base,
    providers: [
      {
        id: 'local',
        kind: 'openai-compatible',
        base_url: `${url}/v1`,
        api_keys: ['sk-local-a'],
        models: [
          { id: 'gpt-test', prices: { input: 2, output: 8 } },
          { id: 'big-test', context_window: 200_000 },
          { id: 'embed-test', embeddings: true, prices: { input: 0.02, output: 0 } },
        ],
      },
      { id: 'claude', kind: 'anthropic', base_url: url, api_key: 'sk-ant-test', models: ['claude-test'] },
    ],
    cache: { enabled: true, semantic: { enabled: true, embedding_model: 'embed-test', threshold: 0.95, timeout_ms: lookupTimeoutMs } },
    // A first-byte timeout far beyond the lookup's: a hung embeddings call ends early only by the lookup's own
    // timeout, so the fail-open case can tell them apart with a bound no loaded machine comes near.
    timeouts: { ...base.timeouts, first_byte_ms: firstByteMs },
  };
}

let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness(semanticConfig, { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } });
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.upstream.reset();
  harness.upstream.setScript({ embeddings: { vectorFor: (text) => vectors[text] } });
});

const chatRequests = () => harness.upstream.requests.filter((request) => request.format !== undefined).length;
const embeddingCalls = () => harness.upstream.requestCount('/v1/embeddings');
const ask = (content: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
  client.chat.completions.create({ model: 'gpt-test', temperature: 0, messages: [{ role: 'user', content }], ...extra }).withResponse();

/** The ledger row for a request id (a chat request's semantic lookup has its own row: `<id>:semantic-embedding`). */
async function recordOf(requestId: string | null): Promise<RequestRecord | undefined> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = harness.observer.records.find((record) => record.requestId === requestId);
    if (found) return found;
    await harness.observer.waitFor(harness.observer.records.length + 1, 200).catch(() => undefined);
  }
  return undefined;
}

describe('semantic response cache', () => {
  it('serves a paraphrase above the threshold from the cache, and the ledger shows a semantic hit with what it saved', async () => {
    const { data: first } = await ask('What is the capital of France?');
    const { data: second, response } = await ask('what is the capital city of France');
    expect(chatRequests()).toBe(1);
    expect(embeddingCalls()).toBe(2);
    expect(response.headers.get('x-hermes-router-cache')).toBe('semantic-hit');
    expect(second.choices[0]?.message.content).toBe(first.choices[0]?.message.content);
    const record = await recordOf(response.headers.get('x-hermes-router-request-id'));
    expect(record?.decision.cache).toMatchObject({ hit: true, kind: 'semantic' });
    expect(record?.decision.cache?.similarity).toBeCloseTo(0.98, 5);
    expect(record?.decision.cache?.savedCostUsd).toBeGreaterThan(0);
    expect(record?.costUsd).toBe(0);
    expect(record?.attempts).toHaveLength(0);
    // The lookup's embeddings call is a row of its own, priced like any embeddings request.
    const embedding = await recordOf(`${response.headers.get('x-hermes-router-request-id')}:semantic-embedding`);
    expect(embedding).toMatchObject({ endpoint: '/v1/embeddings', status: 200, servedModel: 'embed-test' });
    expect(embedding?.usage?.inputTokens).toBeGreaterThan(0);
  });

  it('works in the Anthropic format too, with the system prompt as part of the namespace', async () => {
    const anthropic = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: 'x', maxRetries: 0 });
    // `temperature` is sent as is; this SDK version's types leave it out.
    const askClaude = (content: string, system: string) =>
      anthropic.messages
        .create({ model: 'claude-test', max_tokens: 50, temperature: 0, system, messages: [{ role: 'user', content }] } as Anthropic.MessageCreateParamsNonStreaming)
        .withResponse();
    const { data: first } = await askClaude('How many legs does a spider have?', 'Be brief.');
    const { data: second, response } = await askClaude('how many legs do spiders have', 'Be brief.');
    expect(response.headers.get('x-hermes-router-cache')).toBe('semantic-hit');
    expect(second.content).toEqual(first.content);
    const { response: otherSystem } = await askClaude('how many legs do spiders have', 'Be verbose.');
    expect(otherSystem.headers.get('x-hermes-router-cache')).toBeNull();
    expect(chatRequests()).toBe(2);
  });

  it('an exact repeat is an exact hit and calls no embeddings model', async () => {
    await ask('How tall is Everest?');
    const before = embeddingCalls();
    const { response } = await ask('How tall is Everest?');
    expect(embeddingCalls()).toBe(before);
    expect(response.headers.get('x-hermes-router-cache')).toBe('hit');
    const record = await recordOf(response.headers.get('x-hermes-router-request-id'));
    expect(record?.decision.cache).toMatchObject({ hit: true, kind: 'exact' });
  });

  it('replays a paraphrased stream as a stream', async () => {
    const collect = async (content: string) => {
      let text = '';
      const stream = await client.chat.completions.create({ model: 'gpt-test', temperature: 0, stream: true, messages: [{ role: 'user', content }] });
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      return text;
    };
    const first = await collect('Tell me about the Eiffel tower.');
    const second = await collect('tell me about the eiffel tower please');
    expect(second).toBe(first);
    expect(second.length).toBeGreaterThan(10);
    expect(chatRequests()).toBe(1);
    // A JSON request never gets a streamed answer (and the reverse): the stream flag is part of the namespace.
    await ask('tell me about the eiffel tower please');
    expect(chatRequests()).toBe(2);
  });

  it('sends a question below the threshold upstream', async () => {
    await ask('What is the capital of France?');
    const { response } = await ask('What is the capital of Spain?');
    expect(response.headers.get('x-hermes-router-cache')).toBeNull();
    expect(harness.upstream.requests.some((request) => JSON.stringify(request.json).includes('Spain'))).toBe(true);
  });

  it('never shares across models, client keys, or earlier turns', async () => {
    await ask('Name a prime number.');
    await ask('name any prime number', { model: 'big-test' });
    expect(chatRequests()).toBe(2);

    const admin = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: adminKey, maxRetries: 0 });
    const { response } = await admin.chat.completions
      .create({ model: 'gpt-test', temperature: 0, messages: [{ role: 'user', content: 'name any prime number' }] })
      .withResponse();
    expect(response.headers.get('x-hermes-router-cache')).toBeNull();
    expect(chatRequests()).toBe(3);

    await ask('Which ocean is the largest?', { messages: [{ role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'Which ocean is the largest?' }] });
    await ask('', { messages: [{ role: 'system', content: 'Answer in German.' }, { role: 'user', content: 'which is the largest ocean' }] });
    expect(chatRequests()).toBe(5);
    const { response: sameContext } = await ask('', {
      messages: [{ role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'which is the largest ocean' }],
    });
    expect(sameContext.headers.get('x-hermes-router-cache')).toBe('semantic-hit');
    expect(chatRequests()).toBe(5);
  });

  it('fails open: an embeddings error or a hung embeddings call is a miss, never a failed request', async () => {
    harness.upstream.setScript({ embeddings: { fault: { kind: 'error', status: 500 } } });
    const { data: failed, response } = await ask('Is water wet? (error)');
    expect(failed.choices[0]?.message.content).toBeTruthy();
    expect(chatRequests()).toBe(1);
    const row = await recordOf(`${response.headers.get('x-hermes-router-request-id')}:semantic-embedding`);
    expect(row?.status).toBeGreaterThanOrEqual(500);
    expect(row?.errorClass).toBeDefined();

    harness.upstream.setScript({ embeddings: { fault: { kind: 'hang' } } });
    // The 500 rested the embeddings key (cooldown_ms 1 s): until it is usable again a lookup is skipped at once and
    // the hung call below would never be made. Past the rest, the call hangs and only the lookup's timeout ends it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const started = performance.now();
    const { data: slow } = await ask('Is fire hot? (hang)');
    expect(slow.choices[0]?.message.content).toBeTruthy();
    expect(harness.upstream.requestCount('/v1/embeddings')).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(lookupTimeoutMs - 50);
    expect(performance.now() - started).toBeLessThan(firstByteMs / 3);
    expect(chatRequests()).toBe(2);
  });

  it('never serves the answer of a switched-off model, and a switched-off embeddings model is a miss', async () => {
    const switches = harness.gateway.gateway.switches;
    await ask('Who wrote Hamlet?');
    await switches.set({ provider: 'local', model: 'gpt-test', enabled: false });
    try {
      const { response } = await ask('who is the author of Hamlet');
      expect(response.headers.get('x-hermes-router-cache')).toBeNull();
      expect(response.headers.get('x-hermes-router-model')).toBe('local/big-test');
    } finally {
      await switches.set({ provider: 'local', model: 'gpt-test', enabled: true });
    }
    await ask('Who painted the Mona Lisa?');
    await switches.set({ provider: 'local', model: 'embed-test', enabled: false });
    try {
      const before = embeddingCalls();
      const { response } = await ask('who is the painter of the Mona Lisa');
      expect(response.headers.get('x-hermes-router-cache')).toBeNull();
      expect(embeddingCalls()).toBe(before);
    } finally {
      await switches.set({ provider: 'local', model: 'embed-test', enabled: true });
    }
  });

  it('follows the exact cache rules: no embeddings call for tools, tool loops or a temperature above 0', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object' } } }];
    await ask('What is the capital of France?', { tools });
    await ask('What is the capital of France?', { temperature: 0.7 });
    await ask('', {
      messages: [
        { role: 'user', content: 'What is the capital of France?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'Paris' },
      ],
    });
    expect(embeddingCalls()).toBe(0);
    expect(chatRequests()).toBe(3);
  });
});

describe('semantic cache config', () => {
  const parse = (cache: ConfigInput['cache']) => () => parseConfig({ ...semanticConfig('http://127.0.0.1:9'), cache }, 'test');

  it('is off by default', () => {
    expect(parseConfig({}, 'test').cache.semantic.enabled).toBe(false);
  });

  it('names the path and the fix for a missing or unknown embeddings model, or the exact cache off', () => {
    expect(parse({ enabled: true, semantic: { enabled: true } })).toThrow(/cache\.semantic\.embedding_model: required .*embeddings: true/);
    expect(parse({ enabled: true, semantic: { enabled: true, embedding_model: 'gpt-test' } })).toThrow(
      /cache\.semantic\.embedding_model: "gpt-test" is not an embeddings model.*one of: embed-test/,
    );
    expect(parse({ enabled: false, semantic: { enabled: true, embedding_model: 'embed-test' } })).toThrow(/cache\.semantic\.enabled: .*cache\.enabled: true/);
    expect(parse({ enabled: true, semantic: { enabled: true, embedding_model: 'embed-test', threshold: 1.5 } })).toThrow(ConfigError);
    expect(parse({ enabled: true, semantic: { enabled: true, embedding_model: 'embed-test' } })).not.toThrow();
  });
});

const clusterAvailable = (await postgresAvailable()) && (await redisAvailable());
if (!clusterAvailable) console.warn(`skipping the two-instance semantic cache test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

describe.skipIf(!clusterAvailable)('semantic response cache shared through Redis', () => {
  it('a paraphrase answered on either instance is served on the other from the shared cache, also once both have read it', async () => {
    const upstream = await startFakeUpstream();
    upstream.setScript({ embeddings: { vectorFor: (text) => vectors[text] } });
    const endpoints = { postgresUrl: postgresTestUrl, redisUrl: redisTestUrl, schema: uniqueSchemaName('semantic'), keyPrefix: uniqueKeyPrefix('semantic') };
    const configure = (config: ConfigInput): ConfigInput => {
      const semantic = semanticConfig(upstream.url);
      return { ...config, providers: semantic.providers, cache: semantic.cache };
    };
    const instances = [await startInstance(upstream.url, endpoints, { configure }), await startInstance(upstream.url, endpoints, { configure })];
    try {
      const [first, second] = instances.map((started) => started.instance.url);
      const question = (content: string) => ({ model: 'gpt-test', temperature: 0, messages: [{ role: 'user', content }] });
      const answered = await postChat(first ?? '', question('What is the capital of France?'));
      const served = await postChat(second ?? '', question('what is the capital city of France'));
      expect(served.status).toBe(200);
      expect(served.body).toEqual(answered.body);
      expect(upstream.requests.filter((request) => request.format !== undefined)).toHaveLength(1);
      expect(upstream.requestCount('/v1/embeddings')).toBe(2);
      // Both instances now mirror the namespace: what either adds next must still reach the other.
      const eiffel = await postChat(second ?? '', question('Tell me about the Eiffel tower.'));
      expect((await postChat(first ?? '', question('tell me about the eiffel tower please'))).body).toEqual(eiffel.body);
      const prime = await postChat(first ?? '', question('Name a prime number.'));
      expect((await postChat(second ?? '', question('name any prime number'))).body).toEqual(prime.body);
      expect((await postChat(first ?? '', question('name any prime number'))).body).toEqual(prime.body);
      expect(upstream.requests.filter((request) => request.format !== undefined)).toHaveLength(3);
      expect(upstream.requestCount('/v1/embeddings')).toBe(7);
    } finally {
      await Promise.allSettled(instances.map((started) => started.close()));
      await upstream.close();
      await dropSchemas([endpoints.schema]);
      await deleteKeyPrefixes([endpoints.keyPrefix]);
    }
  });
});
