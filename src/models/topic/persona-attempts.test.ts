import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../catalog/deployment.js';
import type { JsonObject } from '../../core/json.js';
import type { ModelRoutingDecision } from '../../core/route-decision.js';
import type { Turn } from '../../core/turn.js';
import { attachRawBody, serializeJsonBody } from '../../wire/raw-body.js';
import type { Candidate } from '../candidate.js';
import type { PolicyContext } from '../policies/routing-policy.js';
import { topicPolicy } from '../policies/topic-hook.js';
import { topicRoutingConfigSchema } from '../../config/topic-routing.js';
import { personaAttempts } from './persona-attempts.js';
import { EngineTopicRouter } from './topic-policy-router.js';
import { TopicRoutingEngine } from './topic-router.js';

const deployment = (providerId: string, modelId: string): Deployment =>
  ({ providerId, modelId, upstreamModel: modelId, qualifiedName: `${providerId}/${modelId}` }) as Deployment;
const main = deployment('openai', 'gpt-main');
const coder = deployment('openrouter', 'coder');
const coderBackup = deployment('openrouter', 'coder-backup');
const writer = deployment('openrouter', 'writer');
const candidates: Candidate[] = [main, coder, coderBackup, writer].map((item) => ({ deployment: item, source: 'cheapest-capable' }));

const config = topicRoutingConfigSchema.parse({
  topics: {
    software_it: { model: 'coder', provider: 'openrouter', fallbacks: [{ model: 'openrouter/coder-backup' }], persona: 'You are a senior engineer.' },
    writing_language: { model: 'writer' },
  },
});
const agentsMarkdown = '# writing_language\nYou are an editor.\n\n# software_it\nNot used: the configured persona wins.\n';

function turnOf(format: Turn['format'], body: JsonObject, text: string): Turn {
  return {
    format,
    body,
    stream: false,
    messages: [{ role: 'user', text, toolCallNames: [], hasImage: false }],
    hints: {},
  } as unknown as Turn;
}

function contextOf(turn: Turn, sessionId: string): PolicyContext {
  return { turn, sessionId, explicit: false, config: {} as PolicyContext['config'], health: () => 0, latency: () => undefined };
}

const emptyDecision = (): ModelRoutingDecision => ({ policy: 'auto', reason: '', candidates: [] });

describe('the topic persona per request', () => {
  it('two interleaved requests with different topics each get their own persona, on their own chain only', () => {
    const policy = topicPolicy(new EngineTopicRouter(new TopicRoutingEngine(config, { agentsMarkdown })));
    const codingBody = { model: 'hermes-router', messages: [{ role: 'system', content: 'You are Hermes.' }, { role: 'user', content: 'fix this failing API test' }] };
    const writingBody = { model: 'hermes-router', system: 'You are Hermes.', messages: [{ role: 'user', content: 'write a poem about the sea' }] };
    const coding = turnOf('openai-chat', codingBody, 'fix this failing API test');
    const writing = turnOf('anthropic-messages', writingBody, 'write a poem about the sea');
    const codingOriginal = structuredClone(codingBody);
    const writingOriginal = structuredClone(writingBody);

    // Both are routed before either prepares an attempt, as two requests in flight at once are.
    const codingRoute = policy.order(candidates, contextOf(coding, 'a'));
    const writingRoute = policy.order(candidates, contextOf(writing, 'b'));
    const codingDecision = emptyDecision();
    const writingDecision = emptyDecision();
    const codingAttempt = personaAttempts(coding, codingRoute.persona, codingDecision);
    const writingAttempt = personaAttempts(writing, writingRoute.persona, writingDecision);

    expect(codingRoute.topic).toBe('software_it');
    expect(writingRoute.topic).toBe('writing_language');
    expect(codingAttempt(coder).body.messages).toEqual([
      { role: 'system', content: 'You are Hermes.\n\nYou are a senior engineer.' },
      { role: 'user', content: 'fix this failing API test' },
    ]);
    expect(writingAttempt(writer).body.system).toBe('You are Hermes.\n\nYou are an editor.');
    // The topic fallback carries the persona too; the global default and another topic's model do not.
    expect((codingAttempt(coderBackup).body.messages as JsonObject[])[0]?.content).toContain('senior engineer');
    expect(codingAttempt(main)).toBe(coding);
    expect(codingAttempt(writer)).toBe(coding);
    expect(writingAttempt(coder)).toBe(writing);

    expect(codingDecision.persona).toEqual({ topic: 'software_it', sentTo: ['openrouter/coder', 'openrouter/coder-backup'] });
    expect(writingDecision.persona).toEqual({ topic: 'writing_language', sentTo: ['openrouter/writer'] });
    // Copy on write: the client's parsed bodies are exactly as they were.
    expect(codingBody).toEqual(codingOriginal);
    expect(writingBody).toEqual(writingOriginal);
  });

  it('no persona for a skipped turn, a general turn, or a topic without one', () => {
    const policy = topicPolicy(new EngineTopicRouter(new TopicRoutingEngine(config)));
    for (const text of ['/sd fix this failing API test', 'thanks', 'write a poem about the sea']) {
      const turn = turnOf('openai-chat', { messages: [{ role: 'user', content: text }] }, text);
      expect(policy.order(candidates, contextOf(turn, text)).persona).toBeUndefined();
    }
  });

  it('the persona body forwards the client bytes of every member it did not replace', () => {
    const bytes = Buffer.from('{"model":"hermes-router","messages":[{"role":"user","content":"fix this failing API test"}],"extra":  {"kept" : 1}}');
    const body = JSON.parse(bytes.toString('utf8')) as JsonObject;
    attachRawBody(body, bytes);
    const turn = turnOf('openai-chat', body, 'fix this failing API test');
    const persona = { topic: 'software_it', text: 'You are a senior engineer.', deployments: [coder.qualifiedName] };
    const sent = serializeJsonBody(personaAttempts(turn, persona, emptyDecision())(coder).body).toString('utf8');
    expect(sent).toContain('"extra":  {"kept" : 1}');
    expect(JSON.parse(sent).messages[0]).toEqual({ role: 'system', content: 'You are a senior engineer.' });
    expect(body.messages).toEqual([{ role: 'user', content: 'fix this failing API test' }]);
  });
});
