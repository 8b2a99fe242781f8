import { describe, expect, it } from 'vitest';
import type { Turn } from '../../core/turn.js';
import { MemorySemanticCacheStore } from '../../store/memory/memory-semantic-cache-store.js';
import { decodeOpenAiChatRequest } from '../../wire/openai-chat/decode.js';
import { cacheConfigSchema } from '../../config/cache.js';
import { SemanticCache } from './semantic-cache.js';
import { semanticRequest } from './semantic-request.js';

const config = cacheConfigSchema.parse({ enabled: true, semantic: { enabled: true, embedding_model: 'embed', threshold: 0.9 } });

function turn(body: Record<string, unknown>, clientKeyId?: string): Turn {
  const decoded = decodeOpenAiChatRequest({ model: 'm', temperature: 0, ...body }, { requestId: 'r', receivedAt: 0, hints: {}, bodyLength: 0 });
  if (clientKeyId !== undefined) decoded.clientKeyId = clientKeyId;
  return decoded;
}

const question = (content: string) => ({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }] });

describe('semanticRequest', () => {
  it('embeds the last user message (whitespace normalised) and keeps everything else in the namespace', () => {
    const one = semanticRequest(turn(question('  What is\n the capital? ')), config.semantic);
    const two = semanticRequest(turn(question('Capital, please?')), config.semantic);
    expect(one?.text).toBe('What is the capital?');
    expect(one?.namespace).toBe(two?.namespace);
    const namespaces = [
      semanticRequest(turn(question('x'), 'key-a'), config.semantic),
      semanticRequest(turn({ ...question('x'), model: 'other' }), config.semantic),
      semanticRequest(turn({ ...question('x'), max_tokens: 5 }), config.semantic),
      semanticRequest(turn({ messages: [{ role: 'system', content: 'Be long.' }, { role: 'user', content: 'x' }] }), config.semantic),
      semanticRequest(turn({ ...question('x'), stream: true }), config.semantic),
    ].map((request) => request?.namespace);
    expect(new Set([one?.namespace, ...namespaces]).size).toBe(6);
  });

  it('compares nothing that does not end in a plain user question within max_prompt_chars', () => {
    expect(semanticRequest(turn({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'prefill' }] }), config.semantic)).toBeUndefined();
    expect(semanticRequest(turn(question('x'.repeat(config.semantic.max_prompt_chars + 1))), config.semantic)).toBeUndefined();
    const image = { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] };
    expect(semanticRequest(turn({ messages: [image] }), config.semantic)).toBeUndefined();
  });
});

describe('SemanticCache.probe', () => {
  it('never calls the embedder for a request the exact cache would refuse, nor when off', async () => {
    let calls = 0;
    const embed = async () => {
      calls += 1;
      return [1, 0];
    };
    const cache = new SemanticCache(new MemorySemanticCacheStore(10), config, embed);
    const signal = new AbortController().signal;
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
    expect(await cache.probe(turn({ ...question('x'), tools }), undefined, signal)).toBeUndefined();
    expect(await cache.probe(turn({ ...question('x'), temperature: 0.5 }), undefined, signal)).toBeUndefined();
    const off = new SemanticCache(new MemorySemanticCacheStore(10), { ...config, semantic: { ...config.semantic, enabled: false } }, embed);
    expect(await off.probe(turn(question('x')), undefined, signal)).toBeUndefined();
    expect(calls).toBe(0);
  });

  it('finds remembered requests at or above the threshold, best first, and fails open when embedding throws', async () => {
    const vectors: Record<string, number[]> = { a: [1, 0], b: [0.95, Math.sqrt(1 - 0.95 ** 2)], c: [0.8, 0.6] };
    const cache = new SemanticCache(new MemorySemanticCacheStore(10), config, async ({ text }) => {
      const vector = vectors[text];
      if (!vector) throw new Error('embeddings down');
      return vector.map((value) => value * 3);
    });
    const signal = new AbortController().signal;
    (await cache.probe(turn(question('b')), undefined, signal))?.remember('answer-b');
    (await cache.probe(turn(question('c')), undefined, signal))?.remember('answer-c');
    const found = await cache.probe(turn(question('a')), undefined, signal);
    expect(found?.matches.map((match) => match.answerKey)).toEqual(['answer-b']);
    expect(found?.matches[0]?.similarity).toBeCloseTo(0.95, 6);
    expect(await cache.probe(turn(question('unknown')), undefined, signal)).toBeUndefined();
  });
});
