import type { AgentBodyShape } from './types.js';

const headers = { 'x-goog-api-key': 'synthetic-key', 'x-goog-api-client': 'google-genai-sdk/1.30.0 gl-node/v20' };

const tools = [
  {
    functionDeclarations: [
      { name: 'run_shell_command', description: 'Run a command.', parametersJsonSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
      { name: 'read_file', description: 'Read a file.', parametersJsonSchema: { type: 'object', properties: { absolute_path: { type: 'string' } }, required: ['absolute_path'] } },
      { name: 'glob', description: 'Find files.', parameters: { type: 'OBJECT', properties: { pattern: { type: 'STRING' } }, required: ['pattern'] } },
    ],
  },
];

export const geminiCliShapes: AgentBodyShape[] = [
  {
    agent: 'gemini-cli',
    name: 'routing classifier: JSON schema output, no tools',
    path: '/v1beta/models/{model}:generateContent',
    headers,
    body: () => ({
      contents: [
        { role: 'user', parts: [{ text: '<session_context>\nThe workspace.\n</session_context>' }] },
        { role: 'user', parts: [{ text: 'list the files here' }] },
      ],
      systemInstruction: { parts: [{ text: 'Score the request.' }] },
      generationConfig: {
        temperature: 1,
        topP: 0.95,
        topK: 64,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'OBJECT', properties: { reasoning: { type: 'STRING' }, score: { type: 'INTEGER' } }, required: ['reasoning', 'score'] },
      },
    }),
  },
  {
    agent: 'gemini-cli',
    name: 'tool turn: a functionCall with a thought signature and its functionResponse (SSE)',
    path: '/v1beta/models/{model}:streamGenerateContent?alt=sse',
    headers,
    body: () => ({
      contents: [
        { role: 'user', parts: [{ text: 'list the files here' }] },
        { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } }, thoughtSignature: 'c2ln' }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'run_shell_command', response: { output: 'a.txt' } } }] },
      ],
      systemInstruction: { role: 'user', parts: [{ text: 'You are a coding agent.' }] },
      tools,
      generationConfig: { temperature: 0, topP: 1, thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 } },
    }),
  },
];
