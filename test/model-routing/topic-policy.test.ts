import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicRoutingConfigSchema } from '../../src/config/topic-routing.js';
import { EngineTopicRouter } from '../../src/models/topic/topic-policy-router.js';
import { TopicRoutingEngine } from '../../src/models/topic/topic-router.js';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { adminKey, chat, setSwitch } from './admin-client.js';
import { mixedConfig } from './routing-config.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness((url) => mixedConfig(url, { signature: { enabled: true } }), { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } });
  const engine = new TopicRoutingEngine(topicRoutingConfigSchema.parse({ inertia: 1, topics: { software_it: { model: 'strong', fallbacks: [{ model: 'mid' }] } } }));
  harness.gateway.gateway.modelRouter.setTopicRouter(new EngineTopicRouter(engine));
});
afterAll(() => harness.close());

const coding = 'My Python script throws a KeyError when reading the config dict, how do I fix it?';

async function ask(text: string, session: string) {
  harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'Answer.' } });
  const result = await chat(harness.gateway.url, { model: 'hermes-router', messages: [{ role: 'user', content: text }] }, { 'x-hermes-session-affinity': session });
  const records = await harness.observer.waitFor(harness.observer.records.length);
  const choices = result.body.choices as { message: { content: string } }[];
  return { result, decision: records.at(-1)?.decision.models, content: choices[0]?.message.content };
}

describe('topic policy (the topic engine plugged into the router)', () => {
  it('sends a software question to its specialist and signs with the topic', async () => {
    const { result, decision, content } = await ask(coding, 't1');
    expect(result.headers.get('x-hermes-router-model')).toBe('local/strong');
    expect(result.headers.get('x-hermes-router-route')).toBe('topic');
    expect(decision?.topic).toBe('software_it');
    expect(content).toBe('Answer.\n\n- strong [software_it]');
  });

  it('a topic without a specialist keeps the cheapest order and signs [general]', async () => {
    const { result, content } = await ask('What is a good recipe for banana bread?', 't2');
    expect(result.headers.get('x-hermes-router-model')).toBe('local/cheap-small');
    expect(content).toBe('Answer.\n\n- cheap-small [general]');
  });

  it('the specialist switched off: its fallback leads', async () => {
    await setSwitch(harness.gateway.url, { provider: 'local', model: 'strong', enabled: false });
    try {
      const { result, content } = await ask(coding, 't3');
      expect(result.headers.get('x-hermes-router-model')).toBe('local/mid');
      expect(content).toBe('Answer.\n\n- mid [software_it]');
    } finally {
      await setSwitch(harness.gateway.url, { provider: 'local', model: 'strong', enabled: true });
    }
  });
});
