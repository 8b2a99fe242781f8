import { describe, expect, it } from 'vitest';
import type { MessageView } from '../core/turn.js';
import { anticipateToolsets } from './anticipate.js';
import { newUserTurn } from './first-turn.js';
import { toolRoutingConfigSchema } from './config.js';
import { toolRoutingContext } from './routing-context.js';
import { hermesTools } from './test-support/fixtures.js';

const config = toolRoutingConfigSchema.parse({});
const context = toolRoutingContext(hermesTools('cli'), 'openai-chat', config);
if (typeof context === 'string') throw new Error(context);

function view(role: MessageView['role'], text: string, toolCallNames: string[] = []): MessageView {
  return { role, text, toolCallNames, hasImage: false };
}

/** A session that read a file on turn 1, then a new user message. */
function laterTurn(text: string): MessageView[] {
  return [view('system', 'You are Hermes.'), view('user', 'fix the typo in README.md'), view('assistant', '', ['patch']), view('tool', 'ok'), view('assistant', 'Fixed.'), view('user', text)];
}

describe('anticipateToolsets', () => {
  it('grows before the call when a later turn clearly needs a toolset the session lacks', () => {
    const anticipation = anticipateToolsets(context, config, laterTurn('ok now check how much disk space is left on this machine'), ['file']);
    expect(anticipation.added).toContain('terminal');
    expect(anticipation.added).not.toContain('file');
    expect(anticipation.trigger?.toolset).toBe('terminal');
  });

  it('keeps the surface when the turn needs no tool, or when the session already explains it', () => {
    expect(anticipateToolsets(context, config, laterTurn('great, thanks!'), ['file']).added).toEqual([]);
    // The session's file toolset explains this turn: no growth, whatever else the rules would add.
    expect(anticipateToolsets(context, config, laterTurn('now read src/index.ts and fix the same typo there'), ['file']).added).toEqual([]);
  });

  it('only looks at a new user turn: a request that ends in a tool result keeps its surface', () => {
    const messages = [...laterTurn('search the web for the latest node release'), view('assistant', '', ['terminal']), view('tool', 'v22')];
    expect(newUserTurn(messages)).toBeUndefined();
    expect(anticipateToolsets(context, config, messages, ['file']).added).toEqual([]);
  });

  it('is switched off by tool_routing.anticipation.enabled: false', () => {
    const off = toolRoutingConfigSchema.parse({ anticipation: { enabled: false } });
    expect(anticipateToolsets(context, off, laterTurn('ok now check how much disk space is left on this machine'), ['file']).added).toEqual([]);
  });

  it('never adds a toolset the session already has, and adds each one once', () => {
    const anticipation = anticipateToolsets(context, config, laterTurn('search the web for that error message, then run the failing test again'), ['file', 'web']);
    expect(anticipation.added).not.toContain('web');
    expect(new Set(anticipation.added).size).toBe(anticipation.added.length);
  });
});
