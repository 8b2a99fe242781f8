import { describe, expect, it } from 'vitest';
import { addAnthropicBreakpoints } from './anthropic-breakpoints.js';
import { clientSetCacheHints } from './client-hints.js';

const body = () => ({
  model: 'claude',
  system: 'Be brief.',
  tools: [Object.freeze({ name: 'a', input_schema: {} }), Object.freeze({ name: 'b', input_schema: {} })],
  messages: [
    { role: 'user', content: 'first' },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'text', text: 'ok' }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'done' }] },
  ],
});

describe('addAnthropicBreakpoints', () => {
  it('marks tools, system, latest and previous user message without editing the input', () => {
    const input = body();
    const before = JSON.stringify(input);
    const { body: marked, places } = addAnthropicBreakpoints(input, '5m', 4);
    expect(JSON.stringify(input)).toBe(before);
    expect(places).toEqual(['tools', 'system', 'latest_user', 'previous_user']);
    expect(marked.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    const messages = marked.messages as { content: Record<string, unknown>[] }[];
    expect(messages[0]?.content).toEqual([{ type: 'text', text: 'first', cache_control: { type: 'ephemeral' } }]);
    expect(messages[2]?.content[0]?.cache_control).toEqual({ type: 'ephemeral' });
    // The assistant's thinking block is never marked (Anthropic refuses it) and its message is untouched.
    expect(messages[1]).toBe(input.messages[1]);
    expect(clientSetCacheHints(input)).toBe(false);
    expect(clientSetCacheHints(marked)).toBe(true);
  });

  it('never uses more breakpoints than allowed, dropping the least useful first', () => {
    expect(addAnthropicBreakpoints(body(), '1h', 2).places).toEqual(['tools', 'system']);
    const three = addAnthropicBreakpoints(body(), '1h', 3);
    expect(three.places).toEqual(['tools', 'system', 'latest_user']);
    expect(JSON.stringify(three.body).match(/"ttl":"1h"/g)).toHaveLength(3);
  });
});
