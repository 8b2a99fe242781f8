import { describe, expect, it } from 'vitest';
import { topicRoutingConfigSchema } from '../../config/topic-routing.js';
import { formatSignature } from './signature.js';
import { TopicRoutingEngine } from './topic-router.js';

const config = topicRoutingConfigSchema.parse({
  topics: {
    software_it: { model: 'google/gemma-4-31b:free', fallbacks: [{ model: 'baidu/cobuddy:free' }] },
    writing_language: { model: 'owl-alpha' },
  },
  routes: [{ name: 'refunds', model: 'support-model', utterances: ['I want my money back for order 123', 'please refund my last purchase', 'how do I get a refund for a damaged item', 'refund the duplicate charge on my account'] }],
});
const agents = '# software_it\nYou are a senior engineer.\n# writing_language\nYou are an editor.\n';
const user = (content: string) => ({ role: 'user', content });

describe('TopicRoutingEngine personas', () => {
  const withPersonas = topicRoutingConfigSchema.parse({
    switch_confidence: 1,
    topics: { software_it: { model: 'coder', persona: 'Configured engineer.' }, writing_language: { model: 'writer' } },
    routes: [{ ...config.routes[0]!, persona: 'You handle refunds.' }],
  });
  const engine = new TopicRoutingEngine(withPersonas, { agentsMarkdown: `${agents}# refunds\nNot used: the route's own persona wins.\n` });

  it('a configured persona wins over the agents file; a topic without one takes its section', () => {
    expect(engine.decide([user('fix this failing API test')], undefined).persona).toBe('Configured engineer.');
    expect(engine.decide([user('write a poem about the sea')], undefined).persona).toBe('You are an editor.');
  });

  it('a session held on a route by inertia keeps the route persona', () => {
    const first = engine.decide([user('can I get a refund for the broken lamp I bought')], undefined);
    expect(first).toMatchObject({ topic: 'refunds', persona: 'You handle refunds.' });
    const held = engine.decide([user('write a poem about the sea')], first.state);
    expect(held).toMatchObject({ topic: 'refunds', persona: 'You handle refunds.' });
  });
});

describe('TopicRoutingEngine', () => {
  const engine = new TopicRoutingEngine(config, { agentsMarkdown: agents });

  it('routes a technical turn to its target with fallbacks and persona', () => {
    const decision = engine.decide([user('fix this failing API test')], undefined);
    expect(decision).toMatchObject({ topic: 'software_it', source: 'topic', target: { model: 'google/gemma-4-31b:free', fallbacks: [{ model: 'baidu/cobuddy:free' }] }, persona: 'You are a senior engineer.' });
    expect(formatSignature({ finalModel: decision.target!.model, topic: decision.topic })).toBe('- gemma-4-31b [software_it]');
  });

  it('skips with a prefix, strips it and leaves the session state alone', () => {
    const state = { topic: 'software_it', turns: 4 };
    const decision = engine.decide([user('/sd fix this failing API test')], state);
    expect(decision).toMatchObject({ topic: 'skip', source: 'skip', state });
    expect(decision.messages[0]?.content).toBe('fix this failing API test');
  });

  it('uses a user-defined route when one matches, and the default model on chit-chat', () => {
    expect(engine.decide([user('can I get a refund for the broken lamp I bought')], undefined)).toMatchObject({ topic: 'refunds', source: 'route', target: { model: 'support-model' } });
    const general = engine.decide([user('thanks')], { topic: 'software_it', turns: 2 });
    expect(general).toMatchObject({ topic: 'none', target: undefined, persona: undefined });
    expect(formatSignature({ finalModel: 'gpt-5.5', topic: general.topic })).toBe('- gpt-5.5 [general]');
  });
});
