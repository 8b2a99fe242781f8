import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name: string; args: Record<string, unknown> };
}
interface GeminiResponse {
  candidates: { content: { role: string; parts: GeminiPart[] }; finishReason?: string }[];
  usageMetadata?: { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number };
}

/** A Gemini API call as Gemini CLI makes it (key in x-goog-api-key). */
async function call(model: string, method: string, body: unknown, query = ''): Promise<Response> {
  return fetch(`${harness.gateway.url}/v1beta/models/${model}:${method}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test-key' },
    body: JSON.stringify(body),
  });
}

/** Every `data:` payload of an SSE body. */
async function events(response: Response): Promise<GeminiResponse[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((frame) => frame.trim())
    .filter((frame) => frame.startsWith('data:'))
    .map((frame) => JSON.parse(frame.slice(5)) as GeminiResponse);
}

const listTool = {
  functionDeclarations: [
    {
      name: 'run_shell_command',
      description: 'Run a command',
      parameters: { type: 'OBJECT', properties: { command: { type: 'STRING' } }, required: ['command'] },
    },
  ],
};

describe.each([
  ['an OpenAI-compatible chat upstream', 'gpt-test', '/v1/chat/completions'],
  ['an Anthropic upstream', 'claude-test', '/v1/messages'],
])('Gemini API through %s', (_label, model, upstreamPath) => {
  it('answers generateContent with a system instruction', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'Hi there.', usage: { inputTokens: 20, outputTokens: 3 } });
    const response = await call(model, 'generateContent', {
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Say hi.' }] }],
      generationConfig: { temperature: 0.2, maxOutputTokens: 100 },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as GeminiResponse;
    expect(body.candidates[0]?.content).toEqual({ role: 'model', parts: [{ text: 'Hi there.' }] });
    expect(body.candidates[0]?.finishReason).toBe('STOP');
    expect(body.usageMetadata).toMatchObject({ promptTokenCount: 20, candidatesTokenCount: 3, totalTokenCount: 23 });
    const upstream = lastUpstreamRequest(harness);
    expect(upstream.path).toBe(upstreamPath);
    expect(JSON.stringify(upstream.json)).toContain('Be brief.');
    expect(JSON.stringify(upstream.json)).toContain('Say hi.');
  });

  it('returns a function call with its arguments as an object, and takes its functionResponse back', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', toolCalls: [{ name: 'run_shell_command', arguments: { command: 'ls' }, id: 'call_g1' }] });
    const first = (await (await call(model, 'generateContent', { contents: [{ role: 'user', parts: [{ text: 'List files.' }] }], tools: [listTool] })).json()) as GeminiResponse;
    const part = first.candidates[0]?.content.parts.find((candidate) => candidate.functionCall !== undefined);
    expect(part?.functionCall).toEqual({ id: 'call_g1', name: 'run_shell_command', args: { command: 'ls' } });
    const sentTools = JSON.stringify((lastUpstreamRequest(harness).json as { tools: unknown }).tools);
    expect(sentTools).toContain('"type":"string"');
    expect(sentTools).not.toContain('STRING');

    harness.upstream.enqueue({ kind: 'synthetic', text: 'Found a.txt.' });
    const second = await call(model, 'generateContent', {
      contents: [
        { role: 'user', parts: [{ text: 'List files.' }] },
        { role: 'model', parts: [{ functionCall: { id: 'call_g1', name: 'run_shell_command', args: { command: 'ls' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call_g1', name: 'run_shell_command', response: { output: 'a.txt' } } }] },
      ],
      tools: [listTool],
    });
    expect(((await second.json()) as GeminiResponse).candidates[0]?.content.parts[0]?.text).toBe('Found a.txt.');
    const sent = JSON.stringify(lastUpstreamRequest(harness).json);
    expect(sent).toContain('call_g1');
    expect(sent).toContain('a.txt');
  });

  it('streams text as SSE chunks, the last with the finish reason and usage', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'one two three', usage: { inputTokens: 5, outputTokens: 3 } });
    const response = await call(model, 'streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'Count.' }] }] }, '?alt=sse');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const chunks = await events(response);
    expect(chunks.length).toBeGreaterThan(2);
    const text = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []).map((part) => part.text ?? '').join('');
    expect(text).toBe('one two three');
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata?.totalTokenCount).toBe(8);
  });

  it('streams one JSON array without alt=sse (Google\'s default framing), the last element with the finish reason and usage', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'one two three', usage: { inputTokens: 5, outputTokens: 3 } });
    const response = await call(model, 'streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'Count.' }] }] });
    expect(response.headers.get('content-type')).toContain('application/json');
    const raw = await response.text();
    expect(raw.startsWith('[{')).toBe(true);
    const chunks = JSON.parse(raw) as GeminiResponse[];
    expect(chunks.length).toBeGreaterThan(2);
    const text = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []).map((part) => part.text ?? '').join('');
    expect(text).toBe('one two three');
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata?.totalTokenCount).toBe(8);
  });

  it('streams a function call whole in the last chunk', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', toolCalls: [{ name: 'run_shell_command', arguments: { command: 'ls -la' }, id: 'call_g2' }], argumentFragments: 4 });
    const chunks = await events(await call(model, 'streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'List.' }] }], tools: [listTool] }, '?alt=sse'));
    const calls = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []).filter((part) => part.functionCall !== undefined);
    expect(calls).toEqual([{ functionCall: { id: 'call_g2', name: 'run_shell_command', args: { command: 'ls -la' } } }]);
  });
});

describe('Gemini API errors and extras', () => {
  it('sends the JSON array\'s elements as they come: the first arrives while the upstream still stalls, and a broken stream closes the array with an error element', async () => {
    harness.upstream.enqueue({ kind: 'synthetic', text: 'alpha beta gamma delta', chunkCount: 4, stallAfterChunks: 3 });
    const response = await call('gpt-test', 'streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'Go.' }] }] });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let early = '';
    while (!early.includes('"text"')) {
      const next = await reader.read();
      if (next.done) break;
      early += decoder.decode(next.value, { stream: true });
    }
    // The upstream stalls after two text deltas: what the client holds now came before the idle timeout ended
    // the stream, so it is not closed yet and carries no error.
    expect(early.startsWith('[{')).toBe(true);
    expect(early).not.toContain('"error"');
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += decoder.decode(next.value, { stream: true });
    const elements = JSON.parse(early + rest) as { error?: { code: number } }[];
    expect(elements.at(-1)?.error).toBeDefined();
  });

  it('refuses a body without contents in Google\'s error shape', async () => {
    const response = await call('gpt-test', 'generateContent', { contents: [] });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });

  it('answers an unknown model with NOT_FOUND', async () => {
    const response = await call('no-such-model', 'generateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('estimates countTokens without calling a provider', async () => {
    const response = await call('gpt-test', 'countTokens', { contents: [{ role: 'user', parts: [{ text: 'x'.repeat(400) }] }] });
    expect(((await response.json()) as { totalTokens: number }).totalTokens).toBeGreaterThanOrEqual(100);
    expect(harness.upstream.requests).toHaveLength(0);
  });
});
