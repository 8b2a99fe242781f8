import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReceivedRequest } from '../support/fake-upstream/index.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

const coderPersona = 'You are a senior software engineer. Answer with working code.';
const mathPersona = 'You are a careful mathematician. Show each step.';

let harness: Harness;
let agentsDir: string;

beforeAll(async () => {
  agentsDir = mkdtempSync(join(tmpdir(), 'hermes-router-agents-'));
  const agentsFile = join(agentsDir, 'AGENTS.md');
  // software_it is also configured inline: the configured persona must win over this section.
  writeFileSync(agentsFile, `Intro text, not a persona.\n\n# software_it\nAGENTS-FILE CODER (must lose to config)\n\n# math\n${mathPersona}\n`);
  harness = await startHarness((url) => {
    const base = defaultConfig(url);
    // Priced, so cheapest-capable keeps gpt-test (the global default) first unless a topic takes over.
    const local = { ...base.providers![0]!, models: [{ id: 'gpt-test', prices: { input: 0.1, output: 0.4 } }, { id: 'big-test', context_window: 200_000, prices: { input: 5, output: 15 } }] };
    const claude = { ...base.providers![1]!, models: [{ id: 'claude-test', prices: { input: 3, output: 15 } }] };
    return {
      ...base,
      providers: [local, claude],
      topic_routing: {
        switch_confidence: 0.3,
        agents_file: agentsFile,
        topics: {
          software_it: { model: 'big-test', fallbacks: [{ model: 'claude-test' }], persona: coderPersona },
          math: { model: 'claude-test' },
        },
      },
    };
  });
});
afterAll(async () => {
  await harness.close();
  rmSync(agentsDir, { recursive: true, force: true });
});
beforeEach(() => {
  harness.upstream.reset();
  harness.upstream.setScript({ respond: { kind: 'synthetic', text: 'Answer.' } });
});

const codingQuestion = 'My Python script throws a KeyError when I read the JSON config; how do I debug the dictionary access in this function?';
const mathQuestion = 'What is the derivative of x^3 + 2x and how do I find the limit as x approaches zero?';
let sessionCounter = 0;

async function post(format: 'openai' | 'anthropic', body: Record<string, unknown>): Promise<Response> {
  const path = format === 'openai' ? '/v1/chat/completions' : '/v1/messages';
  const headers = { 'content-type': 'application/json', authorization: 'Bearer client', 'x-hermes-session-affinity': `persona-${(sessionCounter += 1)}` };
  const response = await fetch(`${harness.gateway.url}${path}`, { method: 'POST', headers, body: JSON.stringify({ max_tokens: 100, ...body }) });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return response;
}

async function lastRecord() {
  return (await harness.observer.waitFor(harness.observer.records.length)).at(-1);
}

/** The system prompt a provider received, in its own format; undefined when there is none. */
function systemPrompt(request: ReceivedRequest | undefined): string | undefined {
  const json = request?.json as { system?: unknown; messages?: { role: string; content: unknown }[] } | undefined;
  const textOf = (value: unknown): string =>
    typeof value === 'string' ? value : Array.isArray(value) ? value.map((part: { text?: string }) => part.text ?? '').join('\n\n') : '';
  if (request?.format === 'anthropic-messages') return json?.system === undefined ? undefined : textOf(json.system);
  const system = (json?.messages ?? []).filter((message) => message.role === 'system' || message.role === 'developer');
  return system.length ? system.map((message) => textOf(message.content)).join('\n\n') : undefined;
}

function sentTo(model: string): ReceivedRequest[] {
  return harness.upstream.requests.filter((request) => request.model === model);
}

describe('topic persona in the request path', () => {
  it('OpenAI client: the configured persona is appended to the client system message sent to the specialist', async () => {
    const response = await post('openai', { model: 'hermes-router', messages: [{ role: 'system', content: 'You are Hermes.' }, { role: 'user', content: codingQuestion }] });
    expect(response.headers.get('x-hermes-router-model')).toBe('local/big-test');
    const sent = sentTo('big-test')[0]?.json as { messages: { role: string; content: string }[] };
    expect(sent.messages).toEqual([
      { role: 'system', content: `You are Hermes.\n\n${coderPersona}` },
      { role: 'user', content: codingQuestion },
    ]);
    const record = await lastRecord();
    expect(record?.decision.models?.persona).toEqual({ topic: 'software_it', sentTo: ['local/big-test'] });
    // The ledger names the topic, never the persona's text.
    expect(JSON.stringify(record)).not.toContain('senior software engineer');
  });

  it('Anthropic client: the agents-file persona becomes `system` for the Anthropic specialist', async () => {
    const response = await post('anthropic', { model: 'hermes-router', messages: [{ role: 'user', content: mathQuestion }] });
    expect(response.headers.get('x-hermes-router-model')).toBe('claude/claude-test');
    const request = sentTo('claude-test')[0];
    expect(request?.format).toBe('anthropic-messages');
    // As a system block: the prompt-cache optimizer marks the end of the system prompt for the Anthropic upstream.
    expect(systemPrompt(request)).toBe(mathPersona);
    expect((await lastRecord())?.decision.models?.persona).toEqual({ topic: 'math', sentTo: ['claude/claude-test'] });
  });

  it('Anthropic client with its own system blocks, routed to an OpenAI specialist: the persona follows them', async () => {
    const response = await post('anthropic', {
      model: 'hermes-router',
      system: [{ type: 'text', text: 'You are Hermes.' }],
      messages: [{ role: 'user', content: codingQuestion }],
    });
    expect(response.headers.get('x-hermes-router-model')).toBe('local/big-test');
    expect(systemPrompt(sentTo('big-test')[0])).toBe(`You are Hermes.\n\n${coderPersona}`);
  });

  it('no persona for small talk, a /sd turn, or a model the client named', async () => {
    await post('openai', { model: 'hermes-router', messages: [{ role: 'user', content: 'good morning! how was your weekend?' }] });
    expect(harness.upstream.requests.at(-1)?.model).toBe('gpt-test');
    expect(systemPrompt(harness.upstream.requests.at(-1))).toBeUndefined();
    expect((await lastRecord())?.decision.models?.persona).toBeUndefined();

    await post('openai', { model: 'hermes-router', messages: [{ role: 'user', content: `/sd ${codingQuestion}` }] });
    expect(harness.upstream.requests.at(-1)?.model).toBe('gpt-test');
    expect(systemPrompt(harness.upstream.requests.at(-1))).toBeUndefined();
    const skipped = await lastRecord();
    expect(skipped?.decision.models?.topic).toBe('skip');
    expect(skipped?.decision.models?.persona).toBeUndefined();

    await post('openai', { model: 'big-test', messages: [{ role: 'user', content: codingQuestion }] });
    expect(harness.upstream.requests.at(-1)?.model).toBe('big-test');
    expect(systemPrompt(harness.upstream.requests.at(-1))).toBeUndefined();
  });

  it('concurrent requests on different topics each carry their own persona, also on a retry prepared later', async () => {
    // Every coding request's specialist fails after the others are routed, so its topic fallback (claude-test,
    // also the math specialist) is prepared while math requests are in flight: a persona kept anywhere but in
    // the request would leak from one to the other. The specialist answers its 503 after a full second: on a
    // loaded machine ten concurrent requests can take longer than 100 ms to be routed, and a 503 seen before the
    // last coding request is routed rests big-test's key, so that request would skip big-test altogether.
    harness.upstream.setScript({
      byModel: { 'big-test': { kind: 'error', status: 503, delayBeforeHeadersMs: 1000 } },
      respond: { kind: 'synthetic', text: 'Answer.', delayBeforeHeadersMs: 100 },
    });
    const questions = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? `${codingQuestion} (case ${index})` : `${mathQuestion} (case ${index})`));
    const responses = await Promise.all(questions.map((question) => post('openai', { model: 'hermes-router', messages: [{ role: 'user', content: question }] })));
    expect(responses.map((response) => response.headers.get('x-hermes-router-model'))).toEqual(questions.map(() => 'claude/claude-test'));
    expect(sentTo('claude-test')).toHaveLength(questions.length);
    expect(sentTo('big-test').length).toBeGreaterThanOrEqual(questions.length / 2);
    for (const request of harness.upstream.requests) {
      const json = request.json as { messages: { role: string; content: unknown }[] };
      const coding = JSON.stringify(json.messages.at(-1)?.content).includes('KeyError');
      expect(systemPrompt(request)).toBe(coding ? coderPersona : mathPersona);
    }
  });

  it('a topic fallback keeps the persona; the global default after the topic chain gets the client prompt unchanged', async () => {
    harness.upstream.setScript({ byModel: { 'big-test': { kind: 'error', status: 503 } }, respond: { kind: 'synthetic', text: 'Answer.' } });
    let response = await post('openai', { model: 'hermes-router', messages: [{ role: 'user', content: codingQuestion }] });
    expect(response.headers.get('x-hermes-router-model')).toBe('claude/claude-test');
    expect(systemPrompt(sentTo('claude-test').at(-1))).toBe(coderPersona);

    harness.upstream.reset();
    harness.upstream.setScript({
      byModel: { 'big-test': { kind: 'error', status: 503 }, 'claude-test': { kind: 'error', status: 503 } },
      respond: { kind: 'synthetic', text: 'Answer.' },
    });
    response = await post('openai', { model: 'hermes-router', messages: [{ role: 'system', content: 'You are Hermes.' }, { role: 'user', content: codingQuestion }] });
    expect(response.headers.get('x-hermes-router-model')).toBe('local/gpt-test');
    expect(systemPrompt(sentTo('gpt-test').at(-1))).toBe('You are Hermes.');
    const persona = (await lastRecord())?.decision.models?.persona;
    expect(persona?.sentTo ?? []).not.toContain('local/gpt-test');
  });
});
