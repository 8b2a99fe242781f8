import { describe, expect, it } from 'vitest';
import { insightConfigSchema } from '../../src/config/insight.js';
import { ContextNudge, addNoteToSystemPrompt } from '../../src/insight/context-nudge.js';
import { record } from './insight-fixture.js';

const windows: Record<string, number> = { big: 1_000_000, cheap: 100_000 };

function nudge(config: Record<string, unknown> = { enabled: true }, healthy?: (session: string) => boolean | undefined) {
  return new ContextNudge({
    config: insightConfigSchema.parse({ nudge: config }).nudge,
    contextWindow: (_provider, model) => windows[model],
    ...(healthy ? { compressionHealthy: healthy } : {}),
  });
}

const finished = (session: string, served: string, input: number) => record({ id: `${session}-${input}`, at: 0, session, requested: served, served, input, output: 10 });

describe('context nudge', () => {
  it('is off by default, and on per client key when listed', () => {
    const off = nudge({});
    off.requestFinished(finished('s', 'cheap', 95_000));
    expect(off.decide('s', 'client-1')).toBeUndefined();
    const perKey = nudge({ client_keys: ['client-1'] });
    perKey.requestFinished(finished('s', 'cheap', 95_000));
    expect(perKey.decide('s', 'client-2')).toBeUndefined();
    expect(perKey.decide('s', 'client-1')?.level).toBe('escalated');
  });

  it('fires once at 70%, escalates once at 85%, and never re-arms', () => {
    const gate = nudge();
    gate.requestFinished(finished('s', 'cheap', 60_000));
    expect(gate.decide('s', undefined)).toBeUndefined();
    gate.requestFinished(finished('s', 'cheap', 72_000));
    expect(gate.decide('s', undefined)).toMatchObject({ level: 'first', note: '[hermes-router] context ~72% full; consider compacting.' });
    expect(gate.decide('s', undefined)).toBeUndefined();
    gate.requestFinished(finished('s', 'cheap', 86_000));
    expect(gate.decide('s', undefined)?.level).toBe('escalated');
    // Compacted, then grown again: silent.
    gate.requestFinished(finished('s', 'cheap', 20_000));
    gate.requestFinished(finished('s', 'cheap', 90_000));
    expect(gate.decide('s', undefined)).toBeUndefined();
  });

  it('uses the latest prompt over the real window: 500K on a 1M model is 50%, no nudge', () => {
    const gate = nudge();
    gate.requestFinished(finished('long', 'big', 500_000));
    expect(gate.decide('long', undefined)).toBeUndefined();
  });

  it('stays silent when the client compresses healthily, or the window is unknown', () => {
    const gate = nudge({ enabled: true }, (session) => session === 'healthy');
    gate.requestFinished(finished('healthy', 'cheap', 99_000));
    expect(gate.decide('healthy', undefined)).toBeUndefined();
    gate.requestFinished(finished('unknown', 'mystery', 99_000_000));
    expect(gate.decide('unknown', undefined)).toBeUndefined();
  });

  it('adds the note to the system prompt in either format', () => {
    const openai = { format: 'openai-chat' as const, body: { messages: [{ role: 'system', content: 'You are Hermes.' }, { role: 'user', content: 'hi' }] } };
    addNoteToSystemPrompt(openai, 'NOTE');
    expect(openai.body.messages[0]).toEqual({ role: 'system', content: 'You are Hermes.\n\nNOTE' });
    const bare: { format: 'openai-chat'; body: Record<string, unknown> } = { format: 'openai-chat', body: { messages: [{ role: 'user', content: 'hi' }] } };
    addNoteToSystemPrompt(bare, 'NOTE');
    expect(bare.body.messages).toEqual([{ role: 'system', content: 'NOTE' }, { role: 'user', content: 'hi' }]);
    const anthropic: { format: 'anthropic-messages'; body: Record<string, unknown> } = { format: 'anthropic-messages', body: { system: [{ type: 'text', text: 'You are Hermes.' }] } };
    addNoteToSystemPrompt(anthropic, 'NOTE');
    expect(anthropic.body.system).toEqual([{ type: 'text', text: 'You are Hermes.' }, { type: 'text', text: 'NOTE' }]);
  });
});
