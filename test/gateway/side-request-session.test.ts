import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;
let client: OpenAI;
beforeAll(async () => {
  harness = await startHarness();
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());

// Synthesized bodies of the shape Hermes sends to a custom endpoint (no session id anywhere): the agent's turns
// carry its tools; the title request after the first answer has none and quotes the opening exchange.
const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = ['terminal', 'read_file', 'memory'].map((name) => ({
  type: 'function',
  function: { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } },
}));
const system = { role: 'system' as const, content: 'You are an agent on this machine.' };

async function sessionOfNext(send: () => Promise<unknown>): Promise<string | undefined> {
  const before = harness.observer.records.length;
  await send();
  return (await harness.observer.waitFor(before + 1)).at(-1)?.sessionId;
}

describe('an agent side request (title generation) counts in its own session', () => {
  it('the title request quoting the first exchange joins the session; later turns stay in it', async () => {
    const opening = `hello, what can you do? ${Math.random()}`;
    const first = await sessionOfNext(() =>
      client.chat.completions.create({ model: 'gpt-test', stream: false, tools, messages: [system, { role: 'user', content: opening }] }),
    );
    expect(first).toMatch(/^fp_/);
    const title = await sessionOfNext(() =>
      client.chat.completions.create({
        model: 'gpt-test',
        temperature: 0.3,
        messages: [
          { role: 'system', content: 'Write a short title for the conversation below.' },
          { role: 'user', content: `User: ${opening}\n\nAssistant: I can run commands and read files.` },
        ],
      }),
    );
    expect(title).toBe(first);
    const second = await sessionOfNext(() =>
      client.chat.completions.create({
        model: 'gpt-test',
        tools,
        messages: [system, { role: 'user', content: opening }, { role: 'assistant', content: 'I can run commands and read files.' }, { role: 'user', content: 'list the files' }],
      }),
    );
    expect(second).toBe(first);
  });

  it('a tool-less request quoting an opening this gateway never saw is its own session', async () => {
    const alone = await sessionOfNext(() =>
      client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: `User: never seen ${Math.random()}\n\nAssistant: hi` }] }),
    );
    const known = harness.observer.records.slice(0, -1).map((record) => record.sessionId);
    expect(known).not.toContain(alone);
  });

  it('an explicit session id is never overridden', async () => {
    const opening = `explicit ${Math.random()}`;
    await client.chat.completions.create({ model: 'gpt-test', tools, messages: [system, { role: 'user', content: opening }] });
    const titled = await sessionOfNext(() =>
      client.chat.completions.create(
        { model: 'gpt-test', messages: [{ role: 'user', content: `User: ${opening}\n\nAssistant: ok` }] },
        { headers: { 'x-session-id': 'mine' } },
      ),
    );
    expect(titled).toBe('mine');
  });
});
