import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

// Hermes Agent's own tool names (its registry), as it sends them to a custom endpoint with no session id.
const hermesTools: OpenAI.Chat.Completions.ChatCompletionTool[] = ['terminal', 'process', 'read_file', 'patch', 'search_files', 'web_search', 'browser_navigate', 'memory', 'todo'].map(
  (name) => ({ type: 'function', function: { name, description: `${name} tool`, parameters: { type: 'object', properties: {} } } }),
);
const system = { role: 'system' as const, content: 'You are an agent on this machine.' };

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(labels?: boolean): Promise<{ harness: Harness; client: OpenAI }> {
  harness = await startHarness((url) => ({ ...defaultConfig(url), ...(labels === undefined ? {} : { ledger: { session_labels: labels } }) }));
  return { harness, client: new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 }) };
}

/** A first turn, Hermes's title request quoting it, then a second turn, all fingerprinted into one session. */
async function hermesSession(running: { harness: Harness; client: OpenAI }, opening: string) {
  const { harness: gateway, client } = running;
  await client.chat.completions.create({ model: 'gpt-test', tools: hermesTools, messages: [system, { role: 'user', content: opening }] });
  gateway.upstream.enqueue({ kind: 'synthetic', text: '"Flaky **CI** build on the arm runners"' });
  await client.chat.completions.create({
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'Write a short title for the conversation below.' },
      { role: 'user', content: `User: ${opening}\n\nAssistant: I will look at the logs.` },
    ],
  });
  await client.chat.completions.create({
    model: 'gpt-test',
    tools: hermesTools,
    messages: [system, { role: 'user', content: opening }, { role: 'assistant', content: 'I will look at the logs.' }, { role: 'user', content: 'and the cache?' }],
  });
  // In the order they were sent: a record lands when its request ends, and a narrowed first turn's schema token
  // count can end it after the title request's.
  return [...(await gateway.observer.waitFor(3))].sort((left, right) => left.startedAt - right.startedAt);
}

describe('sessions carry what makes them recognisable: agent, first prompt, generated title', () => {
  it('the first request names the agent and its first prompt (one line, cut, secrets redacted); the title request its title', async () => {
    const running = await start();
    const opening = `why does the CI build\nfail on arm? my token is sk-live-abcdefghijklmnop1234 ${'and more words '.repeat(12)}`;
    const [first, title, second] = await hermesSession(running, opening);
    expect(new Set([first?.sessionId, title?.sessionId, second?.sessionId]).size).toBe(1);
    expect(first?.decision.session?.agent).toBe('Hermes Agent');
    const prompt = first?.decision.session?.firstPrompt ?? '';
    expect(prompt.startsWith('why does the CI build fail on arm? my token is [redacted')).toBe(true);
    expect(prompt).not.toContain('sk-live');
    expect(prompt.length).toBeLessThanOrEqual(130);
    expect(prompt.endsWith('…')).toBe(true);
    expect(title?.decision.session?.title).toBe('Flaky **CI** build on the arm runners');
    expect(title?.decision.session?.firstPrompt).toBeUndefined();
    // A later turn is not a first prompt again.
    expect(second?.decision.session?.firstPrompt).toBeUndefined();
    expect(second?.decision.session?.agent).toBe('Hermes Agent');
  });

  it('a coding agent is named by its User-Agent, anything else by the product in it', async () => {
    const running = await start();
    const claude = new OpenAI({ baseURL: running.harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0, defaultHeaders: { 'user-agent': 'claude-cli/2.1.3 (external, cli)' } });
    await claude.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] });
    await fetch(`${running.harness.openAiBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'curl/8.5.0' },
      body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const records = await running.harness.observer.waitFor(2);
    expect(records.map((record) => record.decision.session?.agent)).toEqual(['Claude Code', 'curl']);
  });

  it('ledger.session_labels: false keeps ids and numbers only', async () => {
    const running = await start(false);
    const records = await hermesSession(running, `labels off ${Math.random()}`);
    for (const record of records) {
      expect(record.decision.session).toEqual({ id: record.sessionId, source: 'fingerprint' });
    }
  });
});
