import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness((url) => {
    const base = defaultConfig(url);
    const local = { ...base.providers![0]!, models: [{ id: 'gpt-test', context_window: 1_000 }] };
    return { ...base, providers: [local], fallbacks: {}, insight: { nudge: { enabled: true } } };
  });
});
afterAll(() => harness.close());

async function ask(messages: { role: string; content: string }[], inputTokens: number): Promise<string> {
  harness.upstream.enqueue({ kind: 'synthetic', text: 'ok', stream: false, usage: { inputTokens, outputTokens: 5 } });
  await fetch(`${harness.openAiBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-test', messages }),
  });
  await harness.observer.waitFor(harness.observer.records.length);
  const sent = harness.upstream.requests.at(-1)?.json as { messages: { role: string; content: string }[] };
  return sent.messages.find((message) => message.role === 'system')?.content ?? '';
}

describe('context nudge', () => {
  it('adds one note at 70% of the real window, escalates once at 85%, and never re-arms', async () => {
    const history = [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'start a long task' },
    ];
    expect(await ask(history, 750)).toBe('You are an agent.');
    history.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: 'continue' });
    const first = await ask(history, 760);
    expect(first).toMatch(/context ~\d+% full/);
    history.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: 'continue again' });
    expect(await ask(history, 900)).toBe('You are an agent.');
    history.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: 'and again' });
    expect(await ask(history, 910)).toMatch(/context ~9\d% full/);
    history.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: 'one more' });
    expect(await ask(history, 950)).toBe('You are an agent.');
  });
});
