import { describe, expect, it } from 'vitest';
import { firstUserText } from './first-turn.js';
import { withoutAgentContext } from './agent-context.js';
import { agentDefersTools } from './defers-tools.js';
import { buildToolsetRegistry } from './toolsets/registry.js';

const user = (text: string) => ({ role: 'user' as const, text, toolCallNames: [], hasImage: false });

describe('agent context blocks', () => {
  it('are removed from the text the classifier reads', () => {
    const messages = [
      user('<system-reminder>\nSkills: a, b, c.\n</system-reminder>\n<system-reminder>Today is Tuesday.</system-reminder>\nlist the files here'),
      user('<environment_context>\n  <cwd>/w</cwd>\n</environment_context>'),
    ];
    expect(firstUserText(messages)?.text).toBe('list the files here');
  });

  it('unquote a message that is one quoted string as a whole (opencode run), and nothing else', () => {
    expect(withoutAgentContext('"run ls here"')).toBe('run ls here');
    expect(withoutAgentContext('he said "run ls" to me')).toBe('he said "run ls" to me');
    expect(withoutAgentContext('"a" and "b"')).toBe('"a" and "b"');
  });

  it('leave text without them, and tags nobody closes, as they are', () => {
    expect(withoutAgentContext('explain <div> in HTML')).toBe('explain <div> in HTML');
    expect(withoutAgentContext('<system-reminder> never closed')).toBe('<system-reminder> never closed');
  });
});

describe('agents that defer their tools', () => {
  it('are recognised by a tool-search tool or defer_loading, in either format', () => {
    expect(agentDefersTools([{ name: 'Bash' }, { name: 'ToolSearch' }])).toBe(true);
    expect(agentDefersTools([{ name: 'x', defer_loading: true }])).toBe(true);
    expect(agentDefersTools([{ type: 'function', function: { name: 'tool_search' } }])).toBe(true);
    expect(agentDefersTools([{ type: 'function', function: { name: 'bash' } }])).toBe(false);
  });
});

describe('agent tool maps', () => {
  it("give opencode's, Codex's and Gemini CLI's tools Hermes toolsets; unknown tools stay unowned", () => {
    const names = ['bash', 'read', 'todowrite', 'exec_command', 'apply_patch', 'run_shell_command', 'google_web_search', 'get_goal'];
    const registry = buildToolsetRegistry(names.map((name, index) => ({ name, description: '', index })));
    expect(registry.ownerByIndex).toEqual(['terminal', 'file', 'todo', 'terminal', 'file', 'terminal', 'web', undefined]);
  });
});
