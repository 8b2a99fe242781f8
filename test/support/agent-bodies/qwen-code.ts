import type { AgentBodyShape } from './types.js';

const tool = (name: string, properties: Record<string, unknown>) => ({
  type: 'function',
  function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties, required: Object.keys(properties) } },
});

const tools = [
  tool('read_file', { absolute_path: { type: 'string' } }),
  tool('glob', { pattern: { type: 'string' } }),
  tool('grep_search', { pattern: { type: 'string' } }),
  tool('tool_search', { query: { type: 'string' } }),
  tool('tool_call', { name: { type: 'string' }, arguments: { type: 'object' } }),
  tool('agent', { prompt: { type: 'string' } }),
];

export const qwenCodeShapes: AgentBodyShape[] = [
  {
    agent: 'qwen-code',
    name: 'first turn: reminder parts before the request in one user message',
    path: '/v1/chat/completions',
    headers: {},
    body: (model) => ({
      model,
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: '<system-reminder>\nThe working directory and its files.\n</system-reminder>' },
            { type: 'text', text: '<system-reminder>\nAvailable skills.\n</system-reminder>' },
            { type: 'text', text: 'list the files here' },
          ],
        },
      ],
      max_tokens: 32768,
      stream: true,
      stream_options: { include_usage: true },
      tools,
    }),
  },
];
