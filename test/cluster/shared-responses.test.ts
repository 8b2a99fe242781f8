import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, postgresTestUrl } from '../../src/store/postgres/postgres-test-support.js';
import { redisAvailable, redisTestUrl } from '../../src/store/redis/redis-test-support.js';
import { type ClusterPair, startClusterPair } from './cluster-harness.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the shared responses test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

describe.skipIf(!available)('Responses API across two instances', () => {
  let pair: ClusterPair;

  beforeAll(async () => {
    pair = await startClusterPair('responses');
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('continues on B a conversation A answered (previous_response_id), and B can read and delete it', async () => {
    const onFirst = new OpenAI({ baseURL: `${pair.first.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const onSecond = new OpenAI({ baseURL: `${pair.second.url}/v1`, apiKey: 'x', maxRetries: 0 });
    pair.upstream.enqueue({ kind: 'synthetic', text: 'First answer.' });
    const first = await onFirst.responses.create({ model: 'gpt-test', input: 'Remember the word heron.' });
    pair.upstream.enqueue({ kind: 'synthetic', text: 'Second answer.' });
    const second = await onSecond.responses.create({ model: 'gpt-test', previous_response_id: first.id, input: 'Which word?' });
    expect(second.output_text).toBe('Second answer.');
    const sent = JSON.stringify(pair.upstream.requests.at(-1)?.json);
    expect(sent).toContain('Remember the word heron.');
    expect(sent).toContain('First answer.');
    expect((await onSecond.responses.retrieve(first.id)).output_text).toBe('First answer.');
    await onSecond.responses.delete(first.id);
    await expect(onFirst.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});
