import { describe, expect, it } from 'vitest';
import type { ToolView } from '../../core/turn.js';
import { readToolViews } from '../tool-shape.js';
import { hermesTools } from '../test-support/fixtures.js';
import { mcpServerOf } from './mcp.js';
import { buildToolsetRegistry, matchesPattern } from './registry.js';

function views(names: string[]): ToolView[] {
  return names.map((name, index) => ({ name, description: `${name} tool`, index }));
}

describe('buildToolsetRegistry', () => {
  it('maps every Hermes CLI tool to its Hermes toolset, in first-appearance order', () => {
    const registry = buildToolsetRegistry(readToolViews(hermesTools('cli'), 'openai-chat')!);
    expect(registry.ownerByIndex.every((owner) => owner !== undefined)).toBe(true);
    expect(registry.toolsets.map((toolset) => toolset.name)).toEqual(['browser', 'browser-cdp', 'clarify', 'code_execution', 'cronjob', 'delegation', 'file', 'image_gen', 'memory', 'session_search', 'skills', 'terminal', 'todo', 'tts', 'vision', 'web']);
    expect(registry.byName.get('file')?.toolNames).toEqual(['patch', 'read_file', 'search_files', 'write_file']);
    expect(registry.byName.get('web')?.description).toMatch(/web/i);
  });

  it('groups MCP tools by server in all three naming styles', () => {
    expect(mcpServerOf('mcp_github_create_issue')).toBe('github');
    expect(mcpServerOf('mcp__linear__list_issues')).toBe('linear');
    expect(mcpServerOf('notion__search_pages')).toBe('notion');
    expect(mcpServerOf('get_weather')).toBeUndefined();
    const registry = buildToolsetRegistry(views(['mcp_github_create_issue', 'mcp_github_list_prs', 'mcp__linear__list_issues']));
    expect(registry.ownerByIndex).toEqual(['mcp:github', 'mcp:github', 'mcp:linear']);
    expect(registry.byName.get('mcp:github')?.description).toContain('create_issue');
  });

  it('groups unowned tools by a shared prefix and keeps lone tools unowned', () => {
    const registry = buildToolsetRegistry(views(['jira_create', 'jira_search', 'get_weather', 'terminal']));
    expect(registry.ownerByIndex).toEqual(['jira', 'jira', undefined, 'terminal']);
    expect(buildToolsetRegistry(views(['jira_create', 'jira_search']), { prefixGrouping: false }).ownerByIndex).toEqual([undefined, undefined]);
  });

  it('lets config overrides win over every built-in rule, with globs and their own description', () => {
    const registry = buildToolsetRegistry(views(['terminal', 'mcp_github_create_issue', 'deploy_app']), {
      overrides: { ops: { tools: ['terminal', 'deploy_*'], description: 'Operations' } },
    });
    expect(registry.ownerByIndex).toEqual(['ops', 'mcp:github', 'ops']);
    expect(registry.byName.get('ops')?.description).toBe('Operations');
    expect(matchesPattern('browser_*', 'browser_click')).toBe(true);
    expect(matchesPattern('browser_*', 'xbrowser_click')).toBe(false);
  });
});

describe('readToolViews', () => {
  it('reads OpenAI and Anthropic shapes and refuses unknown ones', () => {
    expect(readToolViews([{ type: 'function', function: { name: 'a', description: 'x' } }], 'openai-chat')?.[0]?.name).toBe('a');
    expect(readToolViews([{ name: 'b', description: 'y', input_schema: {} }], 'anthropic-messages')?.[0]?.name).toBe('b');
    expect(readToolViews([{ type: 'web_search_20250305', name: 'web_search' }], 'anthropic-messages')?.[0]?.name).toBe('web_search');
    expect(readToolViews([{ name: 'b' }], 'openai-chat')).toBeUndefined();
    expect(readToolViews(['nope'], 'anthropic-messages')).toBeUndefined();
  });
});
