import { describe, expect, it } from 'vitest';
import type { Candidate } from '../candidate.js';
import type { PolicyContext } from '../policies/routing-policy.js';
import { topicRoutingConfigSchema } from '../../config/topic-routing.js';
import { EngineTopicRouter } from './topic-policy-router.js';
import { TopicRoutingEngine } from './topic-router.js';

const candidate = (providerId: string, modelId: string): Candidate => ({
  deployment: { providerId, modelId, upstreamModel: modelId, qualifiedName: `${providerId}/${modelId}` },
  source: 'cheapest-capable',
});
const candidates = [candidate('openai', 'gpt-main'), candidate('openrouter', 'coder'), candidate('openrouter', 'coder-backup'), candidate('openrouter', 'writer')];
const config = topicRoutingConfigSchema.parse({
  topics: { software_it: { model: 'coder', provider: 'openrouter', fallbacks: [{ model: 'openrouter/coder-backup' }] }, writing_language: { model: 'writer' } },
});

function context(text: string, sessionId = 's1', explicit = false): PolicyContext {
  return {
    turn: { messages: [{ role: 'user', text, toolCallNames: [], hasImage: false }], hints: {} } as unknown as PolicyContext['turn'],
    sessionId,
    explicit,
    config: {} as PolicyContext['config'],
    health: () => 0,
    latency: () => undefined,
  };
}

describe('EngineTopicRouter', () => {
  it('puts the topic target and its fallbacks first, keeping the rest in order', () => {
    const router = new EngineTopicRouter(new TopicRoutingEngine(config));
    const routed = router.route(candidates, context('fix this failing API test'));
    expect(routed?.topic).toBe('software_it');
    expect(routed?.candidates.map((item) => item.deployment.qualifiedName)).toEqual(['openrouter/coder', 'openrouter/coder-backup', 'openai/gpt-main', 'openrouter/writer']);
  });

  it('leaves the order alone for explicit models, chit-chat and skipped turns (a skip is reported, without a specialist)', () => {
    const router = new EngineTopicRouter(new TopicRoutingEngine(config));
    expect(router.route(candidates, context('fix this failing API test', 's2', true))).toBeUndefined();
    expect(router.route(candidates, context('thanks'))).toBeUndefined();
    const skipped = router.route(candidates, context('/sd fix this failing API test'));
    expect(skipped).toMatchObject({ topic: 'skip', specialist: false });
    expect(skipped?.candidates).toEqual(candidates);
    expect(skipped?.persona).toBeUndefined();
  });

  it('keeps inertia per session', () => {
    const router = new EngineTopicRouter(new TopicRoutingEngine({ ...config, switch_confidence: 1 }));
    expect(router.route(candidates, context('my docker build fails with a permission error', 'a'))?.topic).toBe('software_it');
    // One writing turn in session a is not enough to leave the coding specialist; session b starts fresh.
    expect(router.route(candidates, context('write a poem about the sea', 'a'))?.topic).toBe('software_it');
    expect(router.route(candidates, context('write a poem about the sea', 'b'))?.topic).toBe('writing_language');
  });
});
