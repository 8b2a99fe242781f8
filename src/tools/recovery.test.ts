import { describe, expect, it } from 'vitest';
import { parseRequestToolsetCall, requestToolsetResultText } from './recovery.js';
import { readToolViews } from './tool-shape.js';
import { buildToolsetRegistry } from './toolsets/registry.js';
import { hermesTools } from './test-support/fixtures.js';

const registry = buildToolsetRegistry(readToolViews(hermesTools('cli'), 'openai-chat')!);

describe('parseRequestToolsetCall', () => {
  it('reads OpenAI string arguments and Anthropic objects, deduplicating and splitting unknown names', () => {
    expect(parseRequestToolsetCall('{"toolsets":["web","Terminal","web","kanban"],"reason":"x"}', registry)).toEqual({ valid: ['web', 'terminal'], unknown: ['kanban'] });
    expect(parseRequestToolsetCall({ toolsets: ['file'] }, registry)).toEqual({ valid: ['file'], unknown: [] });
  });

  it('tolerates improvised shapes', () => {
    expect(parseRequestToolsetCall('{"toolset":"web, file"}', registry).valid).toEqual(['web', 'file']);
    expect(parseRequestToolsetCall('browser', registry).valid).toEqual(['browser']);
    expect(parseRequestToolsetCall('', registry)).toEqual({ valid: [], unknown: [] });
  });
});

describe('requestToolsetResultText', () => {
  it('says READY for loaded toolsets and lists the valid names when some are unknown', () => {
    expect(requestToolsetResultText({ valid: ['web'], unknown: [] }, registry)).toMatch(/^READY: loaded web\./);
    const mixed = requestToolsetResultText({ valid: ['web'], unknown: ['kanban'] }, registry);
    expect(mixed).toContain('READY');
    expect(mixed).toContain('unknown toolset kanban');
    expect(mixed).toContain('Valid toolsets: browser, browser-cdp');
    expect(requestToolsetResultText({ valid: [], unknown: [] }, registry)).toMatch(/^ERROR/);
  });
});
