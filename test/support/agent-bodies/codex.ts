import type { AgentBodyShape } from './types.js';

const session = '01a2b3c4-0000-7000-8000-00000000c0de';

const headers = {
  'session-id': session,
  'x-codex-turn-metadata': JSON.stringify({ session_id: session, thread_id: session, turn_id: 'turn-1', request_kind: 'turn' }),
  'x-codex-beta-features': 'synthetic',
  originator: 'codex_exec',
};

const tools = [
  {
    type: 'function',
    name: 'exec_command',
    description: 'Run a command.',
    strict: false,
    parameters: { type: 'object', properties: { cmd: { type: 'string' }, workdir: { type: 'string' } }, required: ['cmd'], additionalProperties: false },
  },
  { type: 'function', name: 'view_image', description: 'Look at an image.', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  {
    type: 'namespace',
    name: 'agents_v1',
    description: 'Sub-agent tools.',
    tools: [{ type: 'function', name: 'close_agent', description: 'Close an agent.', strict: false, parameters: { type: 'object', properties: { target: { type: 'string' } } } }],
  },
  { type: 'web_search', external_web_access: false },
];

function common(model: string): Record<string, unknown> {
  return {
    model,
    stream: true,
    tools,
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: session,
    client_metadata: { session_id: session, turn_id: 'turn-1' },
  };
}

const developer = (text: string) => ({ type: 'message', id: 'msg_dev', role: 'developer', content: [{ type: 'input_text', text }] });
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

export const codexShapes: AgentBodyShape[] = [
  {
    agent: 'codex',
    name: 'first turn: developer messages, environment context, the request',
    path: '/v1/responses',
    headers,
    body: (model) => ({ ...common(model), input: [developer('You are a coding agent.'), developer('Sandbox notes.'), user('<environment_context>cwd</environment_context>'), user('list the files here')] }),
  },
  {
    agent: 'codex',
    name: 'tool turn: reasoning item, function_call and its output sent back whole (store: false)',
    path: '/v1/responses',
    headers,
    body: (model) => ({
      ...common(model),
      input: [
        developer('You are a coding agent.'),
        user('list the files here'),
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Run ls.' }], encrypted_content: 'b3BhcXVl' },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' },
      ],
    }),
  },
];
