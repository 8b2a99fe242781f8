import type { AgentBodyShape } from './types.js';

const headers = {
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,advanced-tool-use-2025-11-20',
  'x-claude-code-session-id': '5f0c2a4e-0000-4000-8000-00000000c1a0',
  'x-app': 'cli',
};

const tools = [
  { name: 'Bash', description: 'Run a shell command.', input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false } },
  { name: 'Read', description: 'Read a file.', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } },
  { name: 'Edit', description: 'Edit a file.', input_schema: { type: 'object', properties: { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } } } },
  { name: 'ToolSearch', description: 'Find deferred tools by keyword.', input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  { name: 'DeferredToolPlaceholder', description: 'A tool loaded on demand.', input_schema: { type: 'object', properties: {} }, defer_loading: true },
];

const system = [
  { type: 'text', text: 'x-anthropic-billing-header: synthetic' },
  { type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } },
  { type: 'text', text: 'Work in the current directory.', cache_control: { type: 'ephemeral' } },
];

/** Fields Claude Code 2.1 sends besides model/messages/system/tools. */
function common(model: string): Record<string, unknown> {
  return {
    model,
    system,
    tools,
    metadata: { user_id: JSON.stringify({ device_id: 'synthetic', account_uuid: '', session_id: '5f0c2a4e-0000-4000-8000-00000000c1a0' }) },
    max_tokens: 32000,
    thinking: { type: 'adaptive', display: 'omitted' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    output_config: { effort: 'high' },
    stream: true,
  };
}

export const claudeCodeShapes: AgentBodyShape[] = [
  {
    agent: 'claude-code',
    name: 'first turn: reminder block, then a system message last in messages',
    path: '/v1/messages?beta=true',
    headers,
    body: (model) => ({
      ...common(model),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '<system-reminder>\nContext the agent adds.\n</system-reminder>' },
            { type: 'text', text: 'list the files here', cache_control: { type: 'ephemeral' } },
          ],
        },
        { role: 'system', content: [{ type: 'text', text: 'Environment notes from the agent.', cache_control: { type: 'ephemeral' } }] },
      ],
    }),
  },
  {
    agent: 'claude-code',
    name: 'tool turn: thinking + tool_use, tool_result, an unknown block type',
    path: '/v1/messages?beta=true',
    headers,
    body: (model) => ({
      ...common(model),
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'list the files here' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should run ls.', signature: 'c2lnbmF0dXJl' },
            { type: 'tool_use', id: 'toolu_01synthetic', name: 'Bash', input: { command: 'ls' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01synthetic', content: [{ type: 'text', text: 'a.txt' }], is_error: false },
            { type: 'future_block_type', payload: { anything: true } },
          ],
        },
        { role: 'system', content: 'A note the agent appends after a tool result.' },
      ],
    }),
  },
];
