import { describe, expect, it } from 'vitest';
import { TopicClassifier } from './classifier.js';
import type { TopicLlm } from './llm-classifier.js';
import { classifyTopicWithLlm, OpenAiCompatibleTopicLlm } from './llm-classifier.js';

const classifier = new TopicClassifier({ mode: 'hybrid' });
const options = { timeoutMs: 200, minConfidence: 0.7 };
const user = (content: string) => ({ role: 'user', content });

function fakeFetch(status: number, content: string): typeof fetch {
  return (async () => new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status })) as typeof fetch;
}

describe('OpenAiCompatibleTopicLlm', () => {
  it('accepts a strict JSON answer and rejects anything else', async () => {
    const signal = new AbortController().signal;
    const good = new OpenAiCompatibleTopicLlm({ baseUrl: 'http://llm.test/v1', model: 'm', fetch: fakeFetch(200, '{"topic":"science","confidence":0.9}') });
    expect(await good.classify(['why is the sky blue'], signal)).toEqual({ topic: 'science', confidence: 0.9 });
    for (const [status, content] of [[200, '{"topic":"astrology","confidence":0.9}'], [200, 'science!'], [500, '{"topic":"science","confidence":0.9}']] as const) {
      const llm = new OpenAiCompatibleTopicLlm({ baseUrl: 'http://llm.test/v1', model: 'm', fetch: fakeFetch(status, content) });
      expect(await llm.classify(['x'], signal)).toBeUndefined();
    }
  });
});

describe('classifyTopicWithLlm', () => {
  it('asks only when the local model is unsure, and uses a confident answer', async () => {
    let calls = 0;
    const llm: TopicLlm = { classify: async () => ((calls += 1), { topic: 'science', confidence: 0.95 }) };
    expect((await classifyTopicWithLlm(classifier, llm, [user('fix this failing API test')], options)).topic).toBe('software_it');
    expect(calls).toBe(0);
    const result = await classifyTopicWithLlm(classifier, llm, [user('hmm')], options);
    expect(calls).toBe(1);
    expect(result).toMatchObject({ topic: 'science', decidedBy: 'llm' });
  });

  it('fails open on a timeout or a low-confidence answer', async () => {
    const slow: TopicLlm = {
      classify: (_turns, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined))),
    };
    expect((await classifyTopicWithLlm(classifier, slow, [user('hmm')], { ...options, timeoutMs: 20 })).topic).toBe('none');
    const unsure: TopicLlm = { classify: async () => ({ topic: 'math', confidence: 0.3 }) };
    expect((await classifyTopicWithLlm(classifier, unsure, [user('hmm')], options)).topic).toBe('none');
  });
});
