import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, postgresTestUrl } from '../../src/store/postgres/postgres-test-support.js';
import { redisAvailable, redisTestUrl } from '../../src/store/redis/redis-test-support.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { ConfiguredGateway } from '../../src/server/run-configured-gateway.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';
import { type ClusterPair, postChat, startClusterPair } from './cluster-harness.js';

const available = (await postgresAvailable()) && (await redisAvailable());
if (!available) console.warn(`skipping the shared topic inertia test: needs Postgres at ${postgresTestUrl} and Redis at ${redisTestUrl}`);

const codingQuestion = 'My Python script throws a KeyError when I read the JSON config; how do I debug the dictionary access in this function?';
const mathQuestion = 'What is the derivative of x^3 + 2x and how do I find the limit as x approaches zero?';

describe.skipIf(!available)('topic inertia shared through Redis', () => {
  let pair: ClusterPair;
  let upstream: FakeUpstream;
  let first: ConfiguredGateway;
  let second: ConfiguredGateway;

  beforeAll(async () => {
    // A new specialist must be seen on two consecutive turns (never at once), so a session's state decides;
    // no affinity policy, which would keep the session on its last model whatever the topic.
    const configure = (config: ConfigInput): ConfigInput => ({
      ...config,
      routing: { ...config.routing, policies: ['cheapest-capable', 'topic'] },
      topic_routing: { inertia: 2, switch_confidence: 1, topics: { software_it: { model: 'big-test' }, math: { model: 'claude-test' } } },
    });
    pair = await startClusterPair('topic_inertia', { configure });
    ({ upstream, first, second } = pair);
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('a topic chosen on A holds on B, and the switch B started building completes on A', async () => {
    const session = { 'x-session-id': 'cluster-topic-1' };
    const messages: { role: string; content: string }[] = [];
    async function turn(url: string, text: string): Promise<string | undefined> {
      messages.push({ role: 'user', content: text });
      const answer = await postChat(url, { model: 'hermes-router', messages }, session);
      expect(answer.status).toBe(200);
      messages.push({ role: 'assistant', content: 'Noted.' });
      return upstream.requests.at(-1)?.model;
    }

    expect(await turn(first.url, codingQuestion)).toBe('big-test');
    // B never saw this session: without A's state, one math turn would be a first specialist turn (claude-test).
    expect(await turn(second.url, mathQuestion)).toBe('big-test');
    // The second math turn in a row, back on A, completes the switch B's turn started.
    expect(await turn(first.url, mathQuestion)).toBe('claude-test');
  });

  it('each instance alone would not hold: a fresh session\'s first math turn goes to the math specialist', async () => {
    const answer = await postChat(second.url, { model: 'hermes-router', messages: [{ role: 'user', content: mathQuestion }] }, { 'x-session-id': 'cluster-topic-2' });
    expect(answer.status).toBe(200);
    expect(upstream.requests.at(-1)?.model).toBe('claude-test');
  });
});
