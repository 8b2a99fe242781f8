import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { easyPrompt, mixedConfig, weatherTool } from './routing-config.js';

let harness: Harness;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  harness = await startHarness((url) => mixedConfig(url, { signature: { enabled: true } }));
  openai = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'client', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: 'client', maxRetries: 0 });
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

const headers = (session: string) => ({ headers: { 'x-hermes-session-affinity': session } });

describe('routing signature', () => {
  it('appends `- model [general]` to a JSON answer', async () => {
    harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'The wall fell in 1989.' } });
    const answer = await openai.chat.completions.create({ model: 'hermes-router', messages: [{ role: 'user', content: easyPrompt }] }, headers('sig-1'));
    expect(answer.choices[0]?.message.content).toBe('The wall fell in 1989.\n\n- cheap-small [general]');
  });

  it('names the model the route asked for when a fallback answered', async () => {
    harness.upstream.setScript({ byModel: { strong: { kind: 'error', status: 500 } }, respond: { kind: 'synthetic', text: 'Answer.' } });
    const answer = await openai.chat.completions.create({ model: 'strong', messages: [{ role: 'user', content: easyPrompt }] }, headers('sig-2'));
    expect(answer.choices[0]?.message.content).toBe('Answer.\n\n- mid [general | routed: strong]');
  });

  it('adds one text delta before the finish chunk of an OpenAI stream', async () => {
    harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'one two three' } });
    const stream = await openai.chat.completions.create({ model: 'hermes-router', stream: true, messages: [{ role: 'user', content: easyPrompt }] }, headers('sig-3'));
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('one two three\n\n- cheap-small [general]');
    expect(finish).toBe('stop');
  });

  it('adds a text block before message_delta of an Anthropic stream, translated from an OpenAI provider', async () => {
    harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'Bonjour.' } });
    const stream = anthropic.messages.stream({ model: 'hermes-router', max_tokens: 100, messages: [{ role: 'user', content: easyPrompt }] }, headers('sig-4'));
    const message = await stream.finalMessage();
    const texts = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    expect(texts.join('')).toBe('Bonjour.\n\n- cheap-small [general]');
    expect(message.stop_reason).toBe('end_turn');
    const json = await anthropic.messages.create({ model: 'mid', max_tokens: 100, messages: [{ role: 'user', content: easyPrompt }] }, headers('sig-5'));
    expect(json.content.at(-1)).toMatchObject({ type: 'text', text: 'Bonjour.\n\n- mid [general]' });
  });

  it('leaves answers that are only tool calls alone', async () => {
    harness.upstream.setScript({ respond: { kind: 'synthetic', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const answer = await openai.chat.completions.create(
      { model: 'hermes-router', messages: [{ role: 'user', content: easyPrompt }], tools: [weatherTool] },
      headers('sig-6'),
    );
    expect(answer.choices[0]?.message.content ?? null).toBeNull();
    const stream = await openai.chat.completions.create(
      { model: 'hermes-router', stream: true, messages: [{ role: 'user', content: easyPrompt }], tools: [weatherTool] },
      headers('sig-7'),
    );
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('');
  });
});

describe('topic_routing.signature', () => {
  it('turns on the same signature (where ARC configs put it); neither switch on means the answer is untouched', async () => {
    for (const enabled of [true, false]) {
      const own = await startHarness((url) => ({ ...mixedConfig(url), topic_routing: { signature: { enabled } } }));
      try {
        own.upstream.setScript({ respond: { kind: 'synthetic', text: 'The wall fell in 1989.' } });
        const client = new OpenAI({ baseURL: own.openAiBaseUrl, apiKey: 'client', maxRetries: 0 });
        const answer = await client.chat.completions.create({ model: 'hermes-router', messages: [{ role: 'user', content: easyPrompt }] });
        expect(answer.choices[0]?.message.content).toBe(enabled ? 'The wall fell in 1989.\n\n- cheap-small [general]' : 'The wall fell in 1989.');
      } finally {
        await own.close();
      }
    }
  });
});
