import type { AgentBodyShape } from './types.js';

const headers = { 'x-session-id': 'ses_synthetic0000000000000', 'x-session-affinity': 'ses_synthetic0000000000000' };

const tool = (name: string, properties: Record<string, unknown>) => ({
  type: 'function',
  function: { name, description: `The ${name} tool.`, parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties, required: Object.keys(properties) } },
});

const tools = [
  tool('bash', { command: { type: 'string' }, description: { type: 'string' } }),
  tool('read', { filePath: { type: 'string' } }),
  tool('edit', { filePath: { type: 'string' }, oldString: { type: 'string' }, newString: { type: 'string' } }),
  tool('glob', { pattern: { type: 'string' } }),
  tool('grep', { pattern: { type: 'string' } }),
  tool('todowrite', { todos: { type: 'array', items: { type: 'object' } } }),
];

export const opencodeShapes: AgentBodyShape[] = [
  {
    agent: 'opencode',
    name: 'title request (no tools, two user messages)',
    path: '/v1/chat/completions',
    headers,
    body: (model) => ({
      model,
      max_tokens: 32000,
      messages: [
        { role: 'system', content: 'You write short titles.' },
        { role: 'user', content: 'Generate a title for this conversation:' },
        { role: 'user', content: 'run the tests and show me what fails' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    }),
  },
  {
    agent: 'opencode',
    name: 'first turn with tools',
    path: '/v1/chat/completions',
    headers,
    body: (model) => ({
      model,
      max_tokens: 32000,
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'run the tests and show me what fails' },
      ],
      tools,
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    }),
  },
  {
    agent: 'opencode',
    name: 'tool turn',
    path: '/v1/chat/completions',
    headers,
    body: (model) => ({
      model,
      max_tokens: 32000,
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'run the tests and show me what fails' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_synthetic', type: 'function', function: { name: 'bash', arguments: '{"command":"ls","description":"List files"}' } }] },
        { role: 'tool', tool_call_id: 'call_synthetic', content: 'a.txt' },
      ],
      tools,
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    }),
  },
];
